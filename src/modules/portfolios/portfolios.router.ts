import type { Routes } from '../../platform/http/routes';
import { CreatePortfolio, ListPortfoliosQuery, Portfolio, PortfolioList } from './portfolios.schemas';
import { createPortfolio, listPortfolios, type PortfolioDeps } from './portfolios.service';

export function portfolioRoutes(routes: Routes, deps: PortfolioDeps): void {
  routes.add(
    {
      method: 'get',
      path: '/portfolios',
      summary: 'List the organisation’s portfolios (contact groups)',
      tags: ['Portfolios'],
      permission: 'read',
      query: ListPortfoliosQuery,
      response: PortfolioList,
    },
    ({ ctx, query }) => listPortfolios(deps, ctx, query),
  );
  routes.add(
    {
      method: 'post',
      path: '/portfolios',
      summary: 'Create a portfolio',
      tags: ['Portfolios'],
      permission: 'create',
      body: CreatePortfolio,
      status: 201,
      response: Portfolio,
      errors: [409],
    },
    ({ ctx, body }) => createPortfolio(deps, ctx, body),
  );
}
