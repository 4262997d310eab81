// The setups module's public entry: the deep-link setups of spec 4.10 and 4.11.
export { setupRoutes } from './setups.router';

export { wizardRoutes } from './wizard.router';
