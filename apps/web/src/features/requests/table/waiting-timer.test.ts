import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { networkItem } from '../../../../../../packages/protocol/src/item-fixtures';
import { LiveTimersContext, WaitingTimer } from './waiting-timer';

// A request sent two hours ago whose answer never came.
const unanswered = networkItem({ status: null, duration: null, createdAt: new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString() });

const render = (live: boolean) =>
  renderToString(createElement(LiveTimersContext, { value: live }, createElement(WaitingTimer, { item: unanswered, fallback: '···' })));

describe('WaitingTimer', () => {
  it('counts the time a request has waited on a live device', () => {
    expect(render(true)).toMatch(/Waiting 1?\d+(\.\d+)? (min|h)/);
  });

  it('shows no running timer in a saved session, whose unanswered requests will never be answered', () => {
    expect(render(false)).toBe('···');
  });
});
