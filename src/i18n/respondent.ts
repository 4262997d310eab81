// The contact's questionnaire pages (modules/respondent): their wording in each language.
import type { Language } from './languages';

/** What can be wrong with one answer (respondent/answers.ts finds them); each has its sentence below. */
export type AnswerProblem =
  | 'required'
  | 'email'
  | 'phone'
  | 'date'
  | 'number'
  | 'choice'
  | 'oneOnly'
  | 'length';

export interface RespondentTexts {
  unknown: [string, string];
  gone: [string, string];
  done: [string, string];
  sign: string;
  intro: string;
  step: (n: number, of: number) => string;
  review: string;
  reviewIntro: string;
  change: string;
  next: string;
  back: string;
  later: string;
  toReview: string;
  submit: string;
  saved: string;
  required: string;
  optional: string;
  yes: string;
  no: string;
  noAnswer: string;
  errorsTitle: string;
  expired: string;
  language: string;
  problems: Record<AnswerProblem, string>;
  /** A campaign's first page, where the visitor says who they are. */
  visitor: {
    intro: string;
    resume: string;
    firstName: string;
    lastName: string;
    email: string;
    start: string;
  };
}

export const respondentTexts: Record<Language, RespondentTexts> = {
  nl: {
    unknown: ['Onbekende link', 'Deze link bestaat niet. Controleer of u hem volledig hebt overgenomen.'],
    gone: ['Link niet meer geldig', 'Deze link is ingetrokken of verlopen. Neem contact op met uw adviseur.'],
    done: ['Bedankt!', 'Uw antwoorden zijn goed ontvangen. U kunt dit venster nu sluiten.'],
    sign: 'U wordt gevraagd een document te ondertekenen. Uw adviseur neemt hiervoor contact met u op.',
    intro:
      'Uw antwoorden worden bij elke stap bewaard: u kunt stoppen en later verdergaan met dezelfde link.',
    step: (n, of) => `Stap ${n} van ${of}`,
    review: 'Nakijken en indienen',
    reviewIntro: 'Kijk uw antwoorden na. U kunt elke stap nog aanpassen voordat u indient.',
    change: 'Aanpassen',
    next: 'Volgende',
    back: 'Vorige',
    later: 'Bewaren en later verdergaan',
    toReview: 'Naar overzicht',
    submit: 'Indienen',
    saved: 'Uw antwoorden zijn bewaard. U kunt later verdergaan met dezelfde link.',
    required: 'verplicht',
    optional: 'optioneel',
    yes: 'Ja',
    no: 'Nee',
    noAnswer: '(geen antwoord)',
    errorsTitle: 'Controleer deze antwoorden',
    expired: 'Dit formulier is verlopen. Laad de pagina opnieuw en probeer het nog eens.',
    language: 'Taal',
    problems: {
      required: 'Dit antwoord is verplicht.',
      email: 'Vul een geldig e-mailadres in.',
      phone: 'Vul een geldig telefoonnummer in.',
      date: 'Vul een geldige datum in.',
      number: 'Vul een getal in.',
      choice: 'Kies een van de mogelijkheden.',
      oneOnly: 'Kies maar één mogelijkheid.',
      length: 'Dit antwoord is te lang.',
    },
    visitor: {
      intro:
        'Vul eerst uw naam en e-mailadres in. Uw antwoorden worden in deze browser bewaard: alleen u ziet ze.',
      resume:
        'Uw antwoorden worden bij elke stap bewaard: u kunt stoppen en later in deze browser verdergaan met dezelfde link.',
      firstName: 'Voornaam',
      lastName: 'Achternaam',
      email: 'E-mailadres',
      start: 'Beginnen',
    },
  },
  fr: {
    unknown: ['Lien inconnu', 'Ce lien n’existe pas. Vérifiez que vous l’avez copié en entier.'],
    gone: ['Lien plus valable', 'Ce lien a été retiré ou a expiré. Veuillez contacter votre conseiller.'],
    done: ['Merci !', 'Vos réponses ont bien été reçues. Vous pouvez fermer cette fenêtre.'],
    sign: 'Vous êtes invité(e) à signer un document. Votre conseiller prendra contact avec vous à ce sujet.',
    intro:
      'Vos réponses sont enregistrées à chaque étape : vous pouvez vous arrêter et reprendre plus tard avec le même lien.',
    step: (n, of) => `Étape ${n} sur ${of}`,
    review: 'Vérifier et envoyer',
    reviewIntro: 'Vérifiez vos réponses. Vous pouvez encore modifier chaque étape avant de les envoyer.',
    change: 'Modifier',
    next: 'Suivant',
    back: 'Précédent',
    later: 'Enregistrer et continuer plus tard',
    toReview: 'Voir le récapitulatif',
    submit: 'Envoyer',
    saved: 'Vos réponses sont enregistrées. Vous pouvez reprendre plus tard avec le même lien.',
    required: 'obligatoire',
    optional: 'facultatif',
    yes: 'Oui',
    no: 'Non',
    noAnswer: '(pas de réponse)',
    errorsTitle: 'Vérifiez ces réponses',
    expired: 'Ce formulaire a expiré. Rechargez la page et réessayez.',
    language: 'Langue',
    problems: {
      required: 'Cette réponse est obligatoire.',
      email: 'Indiquez une adresse e-mail valide.',
      phone: 'Indiquez un numéro de téléphone valide.',
      date: 'Indiquez une date valide.',
      number: 'Indiquez un nombre.',
      choice: 'Choisissez l’une des options proposées.',
      oneOnly: 'Choisissez une seule option.',
      length: 'Cette réponse est trop longue.',
    },
    visitor: {
      intro:
        'Indiquez d’abord votre nom et votre adresse e-mail. Vos réponses sont enregistrées dans ce navigateur : vous seul(e) pouvez les voir.',
      resume:
        'Vos réponses sont enregistrées à chaque étape : vous pouvez vous arrêter et reprendre plus tard dans ce navigateur avec le même lien.',
      firstName: 'Prénom',
      lastName: 'Nom',
      email: 'Adresse e-mail',
      start: 'Commencer',
    },
  },
  en: {
    unknown: ['Unknown link', 'This link does not exist. Check that you copied the whole link.'],
    gone: ['Link no longer valid', 'This link was withdrawn or has expired. Please contact your adviser.'],
    done: ['Thank you!', 'Your answers have been received. You may close this window.'],
    sign: 'You have been asked to sign a document. Your adviser will contact you about it.',
    intro: 'Your answers are saved at every step: you can stop and carry on later with the same link.',
    step: (n, of) => `Step ${n} of ${of}`,
    review: 'Review and submit',
    reviewIntro: 'Check your answers. You can still change every step before you submit.',
    change: 'Change',
    next: 'Next',
    back: 'Back',
    later: 'Save and continue later',
    toReview: 'Go to the overview',
    submit: 'Submit',
    saved: 'Your answers are saved. You can carry on later with the same link.',
    required: 'required',
    optional: 'optional',
    yes: 'Yes',
    no: 'No',
    noAnswer: '(no answer)',
    errorsTitle: 'Please check these answers',
    expired: 'This form has expired. Reload the page and try again.',
    language: 'Language',
    problems: {
      required: 'This answer is required.',
      email: 'Enter a valid e-mail address.',
      phone: 'Enter a valid phone number.',
      date: 'Enter a valid date.',
      number: 'Enter a number.',
      choice: 'Choose one of the options.',
      oneOnly: 'Choose only one option.',
      length: 'This answer is too long.',
    },
    visitor: {
      intro:
        'First enter your name and e-mail address. Your answers are kept in this browser: only you can see them.',
      resume:
        'Your answers are saved at every step: you can stop and carry on later in this browser with the same link.',
      firstName: 'First name',
      lastName: 'Last name',
      email: 'E-mail address',
      start: 'Start',
    },
  },
};

/** The titles of the contact's error pages, by status: met before a language is known, so in English. */
export const errorTitles: Record<number, string> = {
  400: 'This form could not be read',
  403: 'Not allowed',
  404: 'Page not found',
  408: 'That took too long',
  413: 'Too much was sent',
  415: 'This form could not be read',
  429: 'Too many attempts',
};

/** The title of an error page for any other status. */
export const otherErrorTitle = 'Something went wrong';
