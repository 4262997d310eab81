import type { Language } from '../db/schema';
import { escapeHtml } from '../modules/sessionrequests/messages';
import type { PublicAction } from '../modules/sessionrequests/public.service';

const texts: Record<
  Language,
  {
    unknown: [string, string];
    gone: [string, string];
    ready: string;
    done: string;
    sign: string;
    fill: string;
  }
> = {
  nl: {
    unknown: ['Onbekende link', 'Deze link bestaat niet. Controleer of u hem volledig hebt overgenomen.'],
    gone: ['Link niet meer geldig', 'Deze link is ingetrokken of verlopen. Neem contact op met uw adviseur.'],
    ready: 'Deze actie staat voor u klaar.',
    done: 'U hebt deze actie al afgerond. Bedankt!',
    sign: 'U wordt gevraagd een document te ondertekenen.',
    fill: 'U wordt gevraagd een vragenlijst in te vullen.',
  },
  fr: {
    unknown: ['Lien inconnu', 'Ce lien n’existe pas. Vérifiez que vous l’avez copié en entier.'],
    gone: ['Lien expiré', 'Ce lien a été retiré ou a expiré. Contactez votre conseiller.'],
    ready: 'Cette action vous attend.',
    done: 'Vous avez déjà terminé cette action. Merci !',
    sign: 'Vous êtes invité à signer un document.',
    fill: 'Vous êtes invité à compléter un questionnaire.',
  },
  en: {
    unknown: ['Unknown link', 'This link does not exist. Check that you copied all of it.'],
    gone: ['Link no longer valid', 'This link was withdrawn or has expired. Please contact your adviser.'],
    ready: 'This action is waiting for you.',
    done: 'You have already completed this action. Thank you!',
    sign: 'You are asked to sign a document.',
    fill: 'You are asked to fill in a questionnaire.',
  },
};

function layout(language: Language, title: string, body: string): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;padding:1.5rem;color:#1a1a1a;background:#fff;line-height:1.5}
main{max-width:36rem;margin:0 auto}
h1{font-size:1.5rem}
</style>
</head>
<body><main>
${body}
</main></body>
</html>
`;
}

/** The minimal page of a public link (the questionnaire itself comes with the respondent pages). */
export function renderActionPage(action: PublicAction): { status: number; html: string } {
  if (action.outcome === 'unknown') {
    // The contact's language is unknown here: the page says it in all three.
    const body = (['nl', 'fr', 'en'] as const)
      .map(
        (l) => `<section lang="${l}"><h1>${texts[l].unknown[0]}</h1><p>${texts[l].unknown[1]}</p></section>`,
      )
      .join('\n');
    return { status: 404, html: layout('en', 'Unknown link', body) };
  }
  const t = texts[action.language];
  if (action.outcome === 'gone') {
    return {
      status: 410,
      html: layout(action.language, t.gone[0], `<h1>${t.gone[0]}</h1>\n<p>${t.gone[1]}</p>`),
    };
  }
  const what = action.type === 'quicksign' ? t.sign : t.fill;
  const state = action.status === 'completed' ? t.done : t.ready;
  const org = escapeHtml(action.organisation);
  return {
    status: 200,
    html: layout(action.language, action.organisation, `<h1>${org}</h1>\n<p>${state}</p>\n<p>${what}</p>`),
  };
}
