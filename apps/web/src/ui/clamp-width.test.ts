import { SIDEBAR } from '@spyglass/protocol';
import { describe, expect, it } from 'vitest';
import { clampWidth } from './clamp-width';

describe('clampWidth', () => {
  it('keeps the left sidebar within 150 and 400 (spec 000 §9)', () => {
    expect(clampWidth(90, SIDEBAR.left.min, SIDEBAR.left.max)).toBe(150);
    expect(clampWidth(512, SIDEBAR.left.min, SIDEBAR.left.max)).toBe(400);
    expect(clampWidth(233.6, SIDEBAR.left.min, SIDEBAR.left.max)).toBe(234);
  });

  it('lets the right sidebar grow without an upper limit', () => {
    expect(clampWidth(120, SIDEBAR.right.min, Infinity)).toBe(200);
    expect(clampWidth(900, SIDEBAR.right.min, Infinity)).toBe(900);
  });
});
