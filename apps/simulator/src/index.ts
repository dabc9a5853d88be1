export { startSimulator, type Simulator, type SimulatorOptions, type SimulatorStats, type VirtualDevice } from './simulator';
export { startFakeBackend, type FakeBackend } from './backend';
export { deviceProfile, type MobilePlatform } from './device-profiles';
export { createRandom, type Random } from './random';
export { ACTION_KINDS, DEFAULT_MIX, type ActionKind, type TrafficMix } from './traffic';
export { encodePng, gradientPng } from './png';
