// The portfolios module's public entry: what other modules may use.
export { portfolioRepository } from './portfolios.repository';
