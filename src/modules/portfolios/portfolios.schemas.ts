import { timestamp } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { cursorAnswer, walkQuery } from '../../platform/lists/cursor';

export const Portfolio = z
  .object({
    _id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    isDefault: z.boolean().meta({ description: 'Contacts created without a portfolioId go here' }),
    customerCount: z.number().int(),
    createdAt: timestamp,
  })
  .meta({ id: 'Portfolio', description: 'A group of contacts' });

export const PortfolioList = z
  .object({ portfolios: z.array(Portfolio), total: z.number().int(), ...cursorAnswer })
  .meta({ id: 'PortfolioList' });

export const CreatePortfolio = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).optional(),
  })
  .meta({ id: 'CreatePortfolio' });

export type Portfolio = z.infer<typeof Portfolio>;
export type CreatePortfolio = z.infer<typeof CreatePortfolio>;

export const ListPortfoliosQuery = z.object(walkQuery);
