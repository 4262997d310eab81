import type { Database } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { Clock } from '../../platform/kernel/clock';
import { systemContext } from '../../platform/kernel/context';
import { NotFound } from '../../platform/kernel/errors';
import { organisationOf } from '../organisations';
import { questionListRepository } from './questionlists.repository';
import { CreateQuestionList } from './questionlists.schemas';
import { createQuestionList } from './questionlists.service';

const t = (nl: string, fr: string, en: string) => ({ nl, fr, en });
const yesNo = (id: string, title: ReturnType<typeof t>, required = true) => ({
  id,
  type: 'yes_no',
  title,
  required,
});
const option = (value: string, label: ReturnType<typeof t>) => ({ value, label });

/** Realistic templates for demos and manual testing (nl, fr, en); checked like any other template. */
const demoTemplates = [
  {
    name: 'Klantenprofiel',
    slug: 'klantenprofiel',
    description: 'Persoonlijke en gezinssituatie, werk en inkomen (jaarlijkse update)',
    supportedLanguages: ['nl', 'fr', 'en'],
    hasReportSpec: true,
    sections: [
      {
        id: 'personal',
        title: t('Persoonlijke gegevens', 'Données personnelles', 'Personal details'),
        questions: [
          {
            id: 'birthdate',
            type: 'date',
            title: t('Geboortedatum', 'Date de naissance', 'Date of birth'),
            required: true,
          },
          {
            id: 'email',
            type: 'email',
            title: t('E-mailadres', 'Adresse e-mail', 'E-mail address'),
            required: true,
          },
          { id: 'phone', type: 'phone', title: t('Gsm-nummer', 'Numéro de GSM', 'Mobile number') },
        ],
      },
      {
        id: 'family',
        title: t('Gezin', 'Famille', 'Family'),
        questions: [
          {
            id: 'civil_status',
            type: 'single_choice',
            title: t('Burgerlijke staat', 'État civil', 'Marital status'),
            required: true,
            options: [
              option('single', t('Alleenstaand', 'Célibataire', 'Single')),
              option('married', t('Gehuwd', 'Marié(e)', 'Married')),
              option(
                'cohabiting',
                t('Wettelijk samenwonend', 'Cohabitant(e) légal(e)', 'Legally cohabiting'),
              ),
              option('divorced', t('Gescheiden', 'Divorcé(e)', 'Divorced')),
            ],
          },
          {
            id: 'partner_name',
            type: 'short_text',
            title: t('Naam van uw partner', 'Nom de votre partenaire', 'Your partner’s name'),
            required: true,
            condition: { questionId: 'civil_status', equals: 'married' },
          },
          {
            id: 'children',
            type: 'number',
            title: t(
              'Aantal kinderen ten laste',
              'Nombre d’enfants à charge',
              'Number of dependent children',
            ),
          },
        ],
      },
      {
        id: 'work',
        title: t('Werk en inkomen', 'Travail et revenus', 'Work and income'),
        questions: [
          {
            id: 'employment',
            type: 'single_choice',
            title: t('Beroepsstatuut', 'Statut professionnel', 'Employment status'),
            required: true,
            options: [
              option('employee', t('Werknemer', 'Salarié(e)', 'Employee')),
              option('self_employed', t('Zelfstandige', 'Indépendant(e)', 'Self-employed')),
              option('retired', t('Gepensioneerd', 'Pensionné(e)', 'Retired')),
            ],
          },
          yesNo(
            'owns_home',
            t(
              'Bent u eigenaar van uw woning?',
              'Êtes-vous propriétaire de votre logement ?',
              'Do you own your home?',
            ),
          ),
          { id: 'remarks', type: 'long_text', title: t('Opmerkingen', 'Remarques', 'Remarks') },
        ],
      },
    ],
  },
  {
    name: 'Beleggersprofiel',
    slug: 'beleggersprofiel',
    description: 'Kennis, ervaring en risicobereidheid (MiFID)',
    supportedLanguages: ['nl', 'fr', 'en'],
    hasReportSpec: true,
    sections: [
      {
        id: 'experience',
        title: t('Kennis en ervaring', 'Connaissances et expérience', 'Knowledge and experience'),
        questions: [
          {
            id: 'products',
            type: 'multiple_choice',
            title: t(
              'In welke producten belegde u al?',
              'Dans quels produits avez-vous déjà investi ?',
              'Which products have you invested in?',
            ),
            options: [
              option('savings', t('Spaarrekening', 'Compte d’épargne', 'Savings account')),
              option('bonds', t('Obligaties', 'Obligations', 'Bonds')),
              option('funds', t('Beleggingsfondsen', 'Fonds de placement', 'Investment funds')),
              option('shares', t('Aandelen', 'Actions', 'Shares')),
            ],
          },
          yesNo(
            'advice_before',
            t(
              'Kreeg u eerder beleggingsadvies?',
              'Avez-vous déjà reçu des conseils en placement ?',
              'Have you had investment advice before?',
            ),
          ),
        ],
      },
      {
        id: 'risk',
        title: t('Risico', 'Risque', 'Risk'),
        questions: [
          {
            id: 'horizon',
            type: 'single_choice',
            title: t('Beleggingshorizon', 'Horizon de placement', 'Investment horizon'),
            required: true,
            options: [
              option('short', t('Minder dan 3 jaar', 'Moins de 3 ans', 'Under 3 years')),
              option('medium', t('3 tot 8 jaar', '3 à 8 ans', '3 to 8 years')),
              option('long', t('Meer dan 8 jaar', 'Plus de 8 ans', 'Over 8 years')),
            ],
          },
          {
            id: 'loss_reaction',
            type: 'single_choice',
            title: t(
              'Uw belegging verliest 20%. Wat doet u?',
              'Votre placement perd 20 %. Que faites-vous ?',
              'Your investment loses 20%. What do you do?',
            ),
            required: true,
            options: [
              option('sell', t('Alles verkopen', 'Tout vendre', 'Sell everything')),
              option('wait', t('Afwachten', 'Attendre', 'Wait')),
              option('buy', t('Bijkopen', 'Racheter', 'Buy more')),
            ],
          },
          {
            id: 'amount',
            type: 'number',
            title: t('Te beleggen bedrag (EUR)', 'Montant à investir (EUR)', 'Amount to invest (EUR)'),
          },
        ],
      },
    ],
  },
  {
    name: 'Tevredenheidsenquête',
    slug: 'tevredenheidsenquete',
    description: 'Korte bevraging na een afspraak',
    supportedLanguages: ['nl', 'fr', 'en'],
    hasReportSpec: false,
    sections: [
      {
        id: 'survey',
        title: t('Uw mening', 'Votre avis', 'Your opinion'),
        questions: [
          {
            id: 'score',
            type: 'single_choice',
            title: t('Hoe tevreden bent u?', 'Êtes-vous satisfait(e) ?', 'How satisfied are you?'),
            required: true,
            options: [
              option('1', t('Ontevreden', 'Insatisfait(e)', 'Dissatisfied')),
              option('2', t('Neutraal', 'Neutre', 'Neutral')),
              option('3', t('Tevreden', 'Satisfait(e)', 'Satisfied')),
            ],
          },
          yesNo(
            'recommend',
            t('Zou u ons aanbevelen?', 'Nous recommanderiez-vous ?', 'Would you recommend us?'),
          ),
          {
            id: 'why_not',
            type: 'long_text',
            title: t('Wat kunnen we beter doen?', 'Que pouvons-nous améliorer ?', 'What could we do better?'),
            condition: { questionId: 'recommend', equals: false },
          },
        ],
      },
    ],
  },
];

/** Adds the demo templates the organisation does not have yet (by slug); returns the slugs added. */
export async function seedTemplates(
  deps: { database: Database; clock: Clock },
  organisationId: string,
): Promise<{ added: string[]; existing: string[] }> {
  const ctx = systemContext(organisationId, deps.clock.now(), 'demo templates');
  const present = await inTenant(deps.database, ctx, async (tx) => {
    if (!(await organisationOf(tx, ctx))) throw new NotFound(`Organisation ${organisationId} not found`);
    const lists = questionListRepository(tx, ctx);
    const present = new Set<string>();
    for (const d of demoTemplates) if (await lists.findBySlug(d.slug)) present.add(d.slug);
    return present;
  });
  const added: string[] = [];
  for (const template of demoTemplates) {
    if (present.has(template.slug)) continue;
    await createQuestionList(deps, ctx, CreateQuestionList.parse(template));
    added.push(template.slug);
  }
  return { added, existing: [...present] };
}
