import type { CapturedItem } from '@spyglass/protocol';
import type { ReactNode } from 'react';
import { useDetailsChoices } from './details-choices';
import { LogDetails } from './log-details';
import { NetworkDetails } from './network-details';
import { AnalyticsDetails, EventDetails, ScreenshotDetails } from './other-details';

/**
 * The body of the details panel for one full item. Loaded with React.lazy by the panel: the
 * viewers are not part of the page's first JavaScript.
 */
export default function ItemDetails({ item, mockSection }: { item: CapturedItem; mockSection?: ReactNode }) {
  const [choices, choose] = useDetailsChoices();
  switch (item.type) {
    case 'network': return <NetworkDetails item={item} choices={choices} onChoose={choose} mockSection={mockSection} />;
    case 'log': return <LogDetails item={item} />;
    case 'event': return <EventDetails item={item} />;
    case 'screenshot': return <ScreenshotDetails item={item} />;
    case 'firebaseAnalytics': return <AnalyticsDetails item={item} />;
  }
}
