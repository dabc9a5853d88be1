import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS_CONFIG, findPlan, loadPlansConfig, plansWithOffer } from './billing-plans';

describe('plans configuration', () => {
  it('has the four plans with the session history of spec 000 §4.5 and yearly at ten months', () => {
    const plans = loadPlansConfig(null).plans;
    expect(plans.map((p) => [p.id, p.sessionHistoryDays])).toEqual([['free', 7], ['team', 7], ['pro', 30], ['enterprise', 365]]);
    for (const plan of plans) expect(plan.billingCycles.yearly.price).toBe(plan.billingCycles.monthly.price * 10);
    expect(findPlan(DEFAULT_PLANS_CONFIG, 'pro')?.trafficLimit).toBe(25_000_000_000);
  });

  it('reads a plans file and stops on a broken one with the reason', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plans-'));
    try {
      const good = path.join(dir, 'plans.json');
      fs.writeFileSync(good, JSON.stringify({ ...DEFAULT_PLANS_CONFIG, specialOffers: { LAUNCH: { discountPercent: 50 } } }));
      expect(loadPlansConfig(good).specialOffers).toEqual({ LAUNCH: { discountPercent: 50 } });
      const bad = path.join(dir, 'bad.json');
      fs.writeFileSync(bad, JSON.stringify({ plans: [{ id: 'gold' }] }));
      expect(() => loadPlansConfig(bad)).toThrow(/BILLING_PLANS_FILE .*bad\.json is not a valid plans file: plans\.0\.id/);
      fs.writeFileSync(bad, '{');
      expect(() => loadPlansConfig(bad)).toThrow(/could not be read as JSON/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('applies a known special offer to every price and ignores an unknown one', () => {
    const config = { ...DEFAULT_PLANS_CONFIG, specialOffers: { HALF: { discountPercent: 50 } } };
    const team = (offer: string | null) => plansWithOffer(config, offer).find((p) => p.id === 'team')!.billingCycles;
    expect(team('HALF').monthly.price).toBe(9.5);
    expect(team('HALF').yearly.price).toBe(95);
    expect(team('NOPE').monthly.price).toBe(19);
    expect(team(null).monthly.price).toBe(19);
  });
});
