import { isSubscriptionUsable, SIDEBAR } from '@spyglass/protocol';
import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useIsMobile } from '../../lib/media';
import { useSettings, useUpdateSettings } from '../../lib/settings';
import { ResizeHandle } from '../../ui/resize-handle';
import { LoadingScreen } from '../../ui/spinner';
import { ErrorBoundary } from '../error-boundary';
import { PricingModalProvider } from '../../features/billing/pricing-modal';
import { SubscriptionExpiredPanel } from '../../features/billing/subscription-expired-panel';
import { useAuth } from '../../lib/auth';
import { usePublicConfig } from '../../lib/config';
import { GuidedOverlay } from '../../features/welcome-tour/guided-overlay';
import { hideTourPanel, useTourShowsPanel } from '../../features/welcome-tour/overlay-store';
import { AppBanners } from './app-banners';
import { ShellLiveConnection } from './live-connection';
import { RightSidebar } from './right-sidebar';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';

/**
 * The signed-in frame: resizable left sidebar, top bar, banners, the screen, and the right sidebar.
 * Widths follow the pointer locally while dragging and are saved to settings once on release.
 */
export function AppShell() {
  const settings = useSettings();
  const updateSettings = useUpdateSettings();
  const isMobile = useIsMobile();
  const location = useLocation();
  const { profile, subscription } = useAuth();
  const { demoMode } = usePublicConfig();
  const [leftWidth, setLeftWidth] = useState(settings.leftSidebarWidth);
  const [rightWidth, setRightWidth] = useState(settings.rightSidebarWidth);
  // On a phone the sidebar is a drawer over the page and its state is not a saved setting.
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The guided tour's steps about the device's actions point at buttons in the sidebar: a closed
  // drawer (phone) or a sidebar the user hid (desktop) left them nothing to highlight. The sidebar
  // shows for those steps over the user's own state, which is back as soon as the tour leaves them
  // (Next, Previous, Close, Escape, Finish): derived, never saved. Hidden by the user during such a
  // step (toggle, the drawer's backdrop), it stays hidden for that step only.
  const tourShowsSidebar = useTourShowsPanel('sidebar');

  useEffect(() => setLeftWidth(settings.leftSidebarWidth), [settings.leftSidebarWidth]);
  useEffect(() => setRightWidth(settings.rightSidebarWidth), [settings.rightSidebarWidth]);
  useEffect(() => setDrawerOpen(false), [location.pathname, isMobile]);
  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setDrawerOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [drawerOpen]);

  const rightMax = Math.max(SIDEBAR.right.min, Math.round(window.innerWidth * 0.5));
  const sidebarOpen = (isMobile ? drawerOpen : settings.showSidebar) || tourShowsSidebar;
  // Hiding the sidebar the tour showed over a hidden setting saves nothing: the setting says so already.
  const hideSidebar = () => {
    hideTourPanel('sidebar');
    if (isMobile) setDrawerOpen(false);
    else if (settings.showSidebar) updateSettings({ showSidebar: false });
  };
  const toggleSidebar = () => {
    if (sidebarOpen) hideSidebar();
    else if (isMobile) setDrawerOpen(true);
    else updateSettings({ showSidebar: true });
  };
  const showRight = !isMobile && settings.showRightSidebar;

  // Spec 000 §8: without a usable subscription the screens give way to 'Subscription Expired';
  // Settings stays open so that the plan can be changed there.
  const expired = subscription !== null && !profile?.isDemoUser && !isSubscriptionUsable(subscription, Date.now(), demoMode)
    && location.pathname !== '/settings';

  return (
    <PricingModalProvider>
    <div className={`shell${isMobile ? ' is-mobile' : ''}`}>
      {isMobile ? (
        sidebarOpen && (
          <>
            <div className="drawer-backdrop" onClick={hideSidebar} aria-hidden="true" />
            <div className="shell-sidebar shell-drawer"><Sidebar onNavigate={hideSidebar} /></div>
          </>
        )
      ) : (
        sidebarOpen && (
          <div className="shell-sidebar" style={{ width: leftWidth }}>
            <Sidebar />
            <ResizeHandle
              edge="right"
              label="Resize sidebar"
              size={leftWidth}
              min={SIDEBAR.left.min}
              max={SIDEBAR.left.max}
              onResize={setLeftWidth}
              onCommit={(width) => updateSettings({ leftSidebarWidth: width })}
            />
          </div>
        )
      )}
      <div className="shell-main">
        <TopBar
          isMobile={isMobile}
          sidebarOpen={sidebarOpen}
          onToggleSidebar={toggleSidebar}
        />
        <ShellLiveConnection />
        <GuidedOverlay />
        <AppBanners />
        <main className="shell-content">
          <ErrorBoundary resetKey={location.pathname}>
            <Suspense fallback={<LoadingScreen />}>
              {expired ? <SubscriptionExpiredPanel /> : <Outlet />}
            </Suspense>
          </ErrorBoundary>
        </main>
      </div>
      {showRight && (
        <div className="shell-right" style={{ width: rightWidth }}>
          <ResizeHandle
            edge="left"
            label="Resize right sidebar"
            size={rightWidth}
            min={SIDEBAR.right.min}
            max={rightMax}
            onResize={setRightWidth}
            onCommit={(width) => updateSettings({ rightSidebarWidth: width })}
          />
          <RightSidebar onClose={() => updateSettings({ showRightSidebar: false })} />
        </div>
      )}
    </div>
    </PricingModalProvider>
  );
}
