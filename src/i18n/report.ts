// The PDF report of a contact's answers (modules/sessions): its wording in each language.
import type { Language } from './languages';

/** The report's wording in one language. */
export interface ReportTexts {
  title: string;
  contact: string;
  date: string;
  page: string;
  none: string;
}

export const reportTexts: Record<Language, ReportTexts> = {
  nl: {
    title: 'Antwoorden',
    contact: 'Klant',
    date: 'Ingediend op',
    page: 'Pagina',
    none: '(geen antwoord)',
  },
  fr: {
    title: 'Réponses',
    contact: 'Client',
    date: 'Soumis le',
    page: 'Page',
    none: '(pas de réponse)',
  },
  en: {
    title: 'Answers',
    contact: 'Contact',
    date: 'Submitted on',
    page: 'Page',
    none: '(no answer)',
  },
};
