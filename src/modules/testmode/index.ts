// The test mode module's public entry (issue 31): the test inbox, its door and its routes.
export { testInboxCapture } from './capture';
export { testModeRoutes } from './testmode.router';
export type { TestMessage } from './testmode.schemas';
export { type TestModeDeps, testInboxOfLive } from './testmode.service';
