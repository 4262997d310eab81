// The staff password pages in each language: "forgot password", choosing a password through an
// e-mailed link, and a link that no longer works. Nobody is signed in, so the language is the browser's.
import type { Language } from './languages';

/** Why a new password is refused (src/modules/accounts/passwords.ts): too short or long, the e-mail, too few characters. */
export type PasswordRule = 'short' | 'long' | 'email' | 'repetitive';

/** What the choose-a-password form refuses: the two fields differ, or the password breaks a rule. */
export type PasswordProblem = 'not-same' | PasswordRule;

/** Why a password link does not open the form. */
export type LinkProblem = 'unknown' | 'used' | 'expired';

export interface PasswordWords {
  forgot: {
    title: string;
    lead: string;
    email: string;
    send: string;
    back: string;
    sentTitle: string;
    sent: (email: string) => string;
    noEmail: string;
  };
  choose: {
    title: string;
    forWhom: (name: string, email: string) => string;
    password: string;
    hint: (min: number) => string;
    confirm: string;
    save: string;
    notSame: string;
    short: (min: number) => string;
    long: (max: number) => string;
    email: string;
    repetitive: string;
  };
  link: Record<LinkProblem, { title: string; text: string }> & { askNew: string; signIn: string };
}

const en: PasswordWords = {
  forgot: {
    title: 'Forgot your password',
    lead: 'Give the e-mail address of your account: we send you a link to choose a new password.',
    email: 'E-mail address',
    send: 'Send the link',
    back: 'Back to sign in',
    sentTitle: 'Check your e-mail',
    sent: (e) =>
      `If ${e} belongs to an ActionDesk account, a link to set a new password is on its way. It works once, for a limited time.`,
    noEmail: 'Give an e-mail address, like name@example.com.',
  },
  choose: {
    title: 'Choose your password',
    forWhom: (name, e) => `For ${name} (${e}).`,
    password: 'New password',
    hint: (min) => `At least ${min} characters. A few words you will remember make a good one.`,
    confirm: 'The same password again',
    save: 'Save and sign in',
    notSame: 'The two passwords are not the same.',
    short: (min) => `The password must be at least ${min} characters.`,
    long: (max) => `The password must be at most ${max} characters.`,
    email: 'The password must not be your e-mail address.',
    repetitive: 'The password must not repeat the same few characters.',
  },
  link: {
    unknown: {
      title: 'This link is not valid',
      text: 'Check that you opened the whole link from the e-mail.',
    },
    used: {
      title: 'This link has already been used',
      text: 'Each link works once. Sign in, or ask for a new link.',
    },
    expired: { title: 'This link has expired', text: 'Ask for a new link: it works for a limited time.' },
    askNew: 'Ask for a new link',
    signIn: 'Sign in',
  },
};

const nl: PasswordWords = {
  forgot: {
    title: 'Wachtwoord vergeten',
    lead: 'Geef het e-mailadres van uw account: we sturen u een link om een nieuw wachtwoord te kiezen.',
    email: 'E-mailadres',
    send: 'De link versturen',
    back: 'Terug naar aanmelden',
    sentTitle: 'Kijk in uw mailbox',
    sent: (e) =>
      `Als ${e} bij een ActionDesk-account hoort, is er een link onderweg om een nieuw wachtwoord in te stellen. Hij werkt één keer, en maar een beperkte tijd.`,
    noEmail: 'Geef een e-mailadres, zoals naam@voorbeeld.be.',
  },
  choose: {
    title: 'Kies uw wachtwoord',
    forWhom: (name, e) => `Voor ${name} (${e}).`,
    password: 'Nieuw wachtwoord',
    hint: (min) =>
      `Minstens ${min} tekens. Een paar woorden die u zult onthouden, vormen een goed wachtwoord.`,
    confirm: 'Nogmaals hetzelfde wachtwoord',
    save: 'Bewaren en aanmelden',
    notSame: 'De twee wachtwoorden zijn niet hetzelfde.',
    short: (min) => `Het wachtwoord moet minstens ${min} tekens lang zijn.`,
    long: (max) => `Het wachtwoord mag hoogstens ${max} tekens lang zijn.`,
    email: 'Het wachtwoord mag niet uw e-mailadres zijn.',
    repetitive: 'Het wachtwoord mag niet steeds dezelfde paar tekens herhalen.',
  },
  link: {
    unknown: {
      title: 'Deze link is niet geldig',
      text: 'Kijk na of u de volledige link uit de e-mail geopend hebt.',
    },
    used: {
      title: 'Deze link is al gebruikt',
      text: 'Elke link werkt maar één keer. Meld u aan, of vraag een nieuwe link.',
    },
    expired: {
      title: 'Deze link is verlopen',
      text: 'Vraag een nieuwe link: hij werkt maar een beperkte tijd.',
    },
    askNew: 'Een nieuwe link vragen',
    signIn: 'Aanmelden',
  },
};

const fr: PasswordWords = {
  forgot: {
    title: 'Mot de passe oublié',
    lead: 'Indiquez l’adresse e-mail de votre compte : nous vous envoyons un lien pour choisir un nouveau mot de passe.',
    email: 'Adresse e-mail',
    send: 'Envoyer le lien',
    back: 'Retour à la connexion',
    sentTitle: 'Consultez vos e-mails',
    sent: (e) =>
      `Si ${e} correspond à un compte ActionDesk, un lien pour définir un nouveau mot de passe est en route. Il ne fonctionne qu’une fois, pendant une durée limitée.`,
    noEmail: 'Indiquez une adresse e-mail, par exemple nom@exemple.be.',
  },
  choose: {
    title: 'Choisissez votre mot de passe',
    forWhom: (name, e) => `Pour ${name} (${e}).`,
    password: 'Nouveau mot de passe',
    hint: (min) =>
      `Au moins ${min} caractères. Quelques mots dont vous vous souviendrez font un bon mot de passe.`,
    confirm: 'Le même mot de passe, une seconde fois',
    save: 'Enregistrer et se connecter',
    notSame: 'Les deux mots de passe ne sont pas identiques.',
    short: (min) => `Le mot de passe doit compter au moins ${min} caractères.`,
    long: (max) => `Le mot de passe doit compter au plus ${max} caractères.`,
    email: 'Le mot de passe ne peut pas être votre adresse e-mail.',
    repetitive: 'Le mot de passe ne peut pas répéter sans cesse les mêmes quelques caractères.',
  },
  link: {
    unknown: {
      title: 'Ce lien n’est pas valide',
      text: 'Vérifiez que vous avez ouvert le lien complet de l’e-mail.',
    },
    used: {
      title: 'Ce lien a déjà été utilisé',
      text: 'Chaque lien ne fonctionne qu’une fois. Connectez-vous, ou demandez un nouveau lien.',
    },
    expired: {
      title: 'Ce lien a expiré',
      text: 'Demandez un nouveau lien : il ne fonctionne que pendant une durée limitée.',
    },
    askNew: 'Demander un nouveau lien',
    signIn: 'Se connecter',
  },
};

export const passwordWords: Record<Language, PasswordWords> = { en, nl, fr };
