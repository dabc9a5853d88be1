import { INTERCEPTED_HEADER } from '@spyglass/protocol';
import { describe, expect, it, vi } from 'vitest';
import { networkItem } from '../../../../../../packages/protocol/src/item-fixtures';
import { acceptsBody, initialDraft, itemMockToSend, mockableHeaders, withInterceptedHeader } from './item-mock-data';
import { LatestSender } from './latest-sender';

const item = networkItem({ id: 'item-1', num: 4, status: 200, url: 'https://api.example.com/todos?page=2', responseBody: '[1]', responseHeaders: { 'content-type': 'application/json' } });

describe('item mock data (spec 001 §3-§5)', () => {
  it('starts from the captured answer, with the intercepted header added', () => {
    expect(initialDraft(item)).toEqual({
      isMocked: false, statusCode: 200, delayMs: null, mockedUrl: 'https://api.example.com/todos?page=2',
      headers: { 'content-type': 'application/json', [INTERCEPTED_HEADER]: 'item-1' }, body: '[1]',
    });
  });

  it('leaves out the headers of the captured transport', () => {
    expect(mockableHeaders({ 'Content-Type': 'text/html', 'Transfer-Encoding': 'chunked', 'content-length': '12', 'Content-Encoding': 'gzip', Connection: 'keep-alive', 'X-A': '1' }))
      .toEqual({ 'Content-Type': 'text/html', 'X-A': '1' });
  });

  it('keeps the intercepted header holding the item id, whatever was sent', () => {
    expect(withInterceptedHeader({ 'spyglass-intercepted': 'forged', A: '1' }, 'item-1')).toEqual({ A: '1', [INTERCEPTED_HEADER]: 'item-1' });
  });

  it('sends the URL with ? escaped, the original when empty, and the delay as entered', () => {
    const draft = { ...initialDraft(item), isMocked: true, statusCode: 418, delayMs: 0, mockedUrl: '' };
    expect(itemMockToSend(item, draft)).toMatchObject({
      isMocked: true, statusCode: 418, method: 'GET', delayMs: 0,
      url: 'https://api.example.com/todos?page=2', mockedUrl: 'https://api.example.com/todos\\?page=2',
    });
  });

  it('reopens a sent mock as it was typed', () => {
    const sent = itemMockToSend(item, { ...initialDraft(item), isMocked: true, mockedUrl: 'https://api.example.com/todos?page=*', delayMs: 250 });
    const reopened = initialDraft({ ...item, isMocked: true, mockData: sent });
    expect(reopened).toMatchObject({ isMocked: true, mockedUrl: 'https://api.example.com/todos?page=*', delayMs: 250 });
  });

  it('takes a JSON body only when it parses', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(acceptsBody('{"a":1}', { 'Content-Type': 'application/json' })).toBe(true);
    expect(acceptsBody('{"a":', { 'Content-Type': 'application/json; charset=utf-8' })).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(acceptsBody('{"a":', { 'Content-Type': 'text/plain' })).toBe(true);
    warn.mockRestore();
  });
});

describe('LatestSender', () => {
  it('sends the first value at once and only the latest of those given meanwhile', async () => {
    const sent: number[] = [];
    let release: () => void = () => undefined;
    const sender = new LatestSender<number>((value) => {
      sent.push(value);
      return new Promise<void>((resolve) => { release = resolve; });
    }, () => undefined);
    sender.push(1);
    sender.push(2);
    sender.push(3);
    expect(sent).toEqual([1]);
    release();
    await vi.waitFor(() => expect(sent).toEqual([1, 3]));
    release();
  });
});
