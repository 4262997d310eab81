// The portfolios module's public entry: what other modules may use.
export { portfolioRoutes } from './portfolios.router';
export {
  contactCountStatement,
  createDefaultPortfolio,
  defaultPortfolio,
  portfolioById,
} from './portfolios.service';
