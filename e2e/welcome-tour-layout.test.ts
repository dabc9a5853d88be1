import { CLIENT_BUILD, CLIENT_BUILD_HEADER, CLIENT_VERSION, CLIENT_VERSION_HEADER } from '@spyglass/protocol';
import { describe, expect, it } from 'vitest';
import { signUpByApi } from './support/accounts';
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
    const res = await fetch(`${env.server.url}/v1/user/complete-onboarding`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json', [CLIENT_VERSION_HEADER]: CLIENT_VERSION, [CLIENT_BUILD_HEADER]: CLIENT_BUILD },
      body: JSON.stringify({ userId: account.profile.id }),
    });
    expect(res.ok).toBe(true);
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
