export * from './mocked-routes';
export * from './device-mocks';
export * from './url-pattern';
export * from './matching';
export * from './validate';
