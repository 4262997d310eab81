// The portfolios module's public entry: what other modules may use.
export { customerTotalStatement, portfolioRepository } from './portfolios.repository';
export { portfolioRoutes } from './portfolios.router';
