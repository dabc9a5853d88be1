import { describe, expect, it } from 'vitest';
import { markOnboarded, signUpByApi } from './support/accounts';
import { useE2eEnvironment } from './support/environment';
import { useStoryFixtures } from './support/fixtures';
import { visible } from './support/page';
import { screenshotBothSchemes } from './support/screenshots';

describe('welcome tour layout', () => {
  const env = useE2eEnvironment();
  const fixtures = useStoryFixtures(env);

  // A 1440-pixel screen with the right sidebar open leaves room for one column of cards: the two
  // checklists must stack at the grid's gap, not spread over the page's height.
  it('stacks the two checklists one under the other when they do not fit side by side', async () => {
    const account = await signUpByApi(env.server);
    await markOnboarded(env.server, account.token, account.profile.id);
    const { page } = await fixtures.signedInUser({ account, context: { viewport: { width: 1100, height: 900 } } });
    await page.goto('/welcome-tour');
    const basic = await visible(page.getByRole('region', { name: 'Basic Tutorial' }));
    const mocking = await visible(page.getByRole('region', { name: 'Mocking Tutorial' }));
    const first = (await basic.boundingBox())!;
    const second = (await mocking.boundingBox())!;
    expect(second.x).toBe(first.x);
    expect(second.y - (first.y + first.height)).toBeLessThanOrEqual(17);
    await screenshotBothSchemes(page, 'welcome-tour-one-column');
  });
});
