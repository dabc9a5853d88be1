import { describe, expect, it } from 'vitest';
import { BottomFollower } from './bottom-follower';

const ROW = 30;
const VIEW = 300;

describe('follow-the-bottom of the console', () => {
  it('keeps following while the list grows or the viewport changes, until the reader scrolls up', () => {
    const follower = new BottomFollower();
    // The list grew under a reader at the end: not at the end any more, but it did not move up.
    expect(follower.onScroll({ offset: 0, atEnd: false, viewport: VIEW }, 1000)).toBe(true);
    expect(follower.onScroll({ offset: 600, atEnd: true, viewport: VIEW }, 1000)).toBe(false);
    expect(follower.onScroll({ offset: 600, atEnd: false, viewport: 200 }, 1000)).toBe(true);
    expect(follower.following).toBe(true);
    expect(follower.requestsBelow(30, 2000, ROW)).toBe(0);

    expect(follower.onScroll({ offset: 300, atEnd: false, viewport: VIEW }, 1000)).toBe(false);
    expect(follower.following).toBe(false);
    // Growth while away does not bring the reader down.
    expect(follower.onScroll({ offset: 300, atEnd: false, viewport: VIEW }, 1000)).toBe(false);
  });

  it("counts the requests below once newer ones arrived, and hides at the bottom or after 'follow'", () => {
    const follower = new BottomFollower();
    follower.onScroll({ offset: 600, atEnd: true, viewport: VIEW }, 1000);
    follower.onScroll({ offset: 450, atEnd: false, viewport: VIEW }, 1000);
    // Rows 0..24 seen of 30: 5 below, but nothing newer yet.
    expect(follower.requestsBelow(30, 1000, ROW)).toBe(0);
    expect(follower.requestsBelow(33, 1500, ROW)).toBe(8);
    follower.onScroll({ offset: 460, atEnd: false, viewport: VIEW }, 1500);
    expect(follower.requestsBelow(33, 1500, ROW)).toBe(7);
    follower.onScroll({ offset: 690, atEnd: true, viewport: VIEW }, 1500);
    expect(follower.requestsBelow(33, 1500, ROW)).toBe(0);

    follower.onScroll({ offset: 100, atEnd: false, viewport: VIEW }, 1500);
    expect(follower.requestsBelow(40, 1600, ROW)).toBe(26);
    let told = 0;
    const stop = follower.subscribe(() => told++);
    follower.follow();
    stop();
    expect(told).toBe(1);
    expect(follower.following).toBe(true);
    expect(follower.requestsBelow(40, 1600, ROW)).toBe(0);
  });

  it('shows nothing for an empty list', () => {
    const follower = new BottomFollower();
    follower.onScroll({ offset: 0, atEnd: true, viewport: VIEW }, null);
    expect(follower.requestsBelow(0, null, ROW)).toBe(0);
  });
});
