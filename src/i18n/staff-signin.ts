// The staff sign-in pages in each language: the sign-in form (password and single sign-on buttons),
// what it says after a session ended or a refused sign-in, the single sign-on choice and its problem
// page. Nobody is signed in yet, so the language is the browser's (src/i18n/staff.ts, staffLanguage).
import type { Language } from './languages';

/** What the sign-in page tells before anything is typed: signed out, or why the last session ended. */
export type SignInNotice =
  | 'signed-out'
  | 'timeout'
  | 'deactivated'
  | 'password'
  | 'deleted'
  | 'revoked'
  | 'access'
  | 'sso-only';

/** Why a password sign-in was refused (besides too many attempts: those say how long to wait). */
export type SignInRefusal = 'wrong' | 'deactivated';

/** A sign-in form's problem: a refused sign-in, or the single sign-on step's own. */
export type SignInProblem = SignInRefusal | 'sso-email' | 'no-sso';

/** Why single sign-on did not sign the browser in, with the values its sentence names. */
export type SsoRefused =
  | { reason: 'state' | 'cancelled' | 'provider' | 'id-token' | 'deactivated' }
  /** No provider: the provider does not exist (any more). */
  | { reason: 'disabled'; provider?: string }
  | { reason: 'unverified' | 'linked-elsewhere'; provider: string }
  | { reason: 'domain'; domain: string; provider: string }
  | { reason: 'no-account'; email: string };

export type SsoRefusal = SsoRefused['reason'];

export interface SsoRefusalWords {
  state: string;
  disabled: (provider: string) => string;
  unknownProvider: string;
  cancelled: string;
  provider: string;
  'id-token': string;
  unverified: (provider: string) => string;
  domain: (domain: string, provider: string) => string;
  'no-account': (email: string) => string;
  'linked-elsewhere': (provider: string) => string;
  deactivated: string;
}

export interface SignInWords {
  title: string;
  titleAt: (organisation: string) => string;
  workAccount: string;
  withPassword: string;
  adminsSummary: string;
  adminsHint: string;
  email: string;
  organisation: string;
  organisationHint: string;
  password: string;
  submit: string;
  forgot: string;
  ssoHint: string;
  ssoButton: string;
  /** A single sign-on button. */
  signInWith: (provider: string) => string;
  notices: Record<SignInNotice, string>;
  problems: Record<SignInProblem, string>;
  limited: (seconds: number) => string;
  noOrganisation: string;
  /** The single sign-on buttons for an e-mail address (e-mail first). */
  choice: {
    title: string;
    forEmail: (email: string) => string;
    chooseFor: (email: string) => string;
    withPassword: string;
  };
  /** Single sign-on did not sign the browser in. */
  sso: {
    title: string;
    back: string;
    buttonExpired: string;
    refusals: SsoRefusalWords;
  };
}

const en: SignInWords = {
  title: 'Sign in',
  titleAt: (o) => `Sign in to ${o}`,
  workAccount: 'With your work account',
  withPassword: 'With your password',
  adminsSummary: 'Administrators: sign in with your password',
  adminsHint:
    'Password sign-in is off for this organisation; administrators keep it as a way in when single sign-on fails.',
  email: 'E-mail address',
  organisation: 'Organisation',
  organisationHint:
    'Your e-mail address has an account in more than one organisation. Choose one and type your password again.',
  password: 'Password',
  submit: 'Sign in',
  forgot: 'Forgot your password?',
  ssoHint:
    'Does your organisation sign in with Google, Microsoft or another provider? Give your e-mail address above, then:',
  ssoButton: 'Continue with single sign-on',
  signInWith: (p) => `Sign in with ${p}`,
  notices: {
    'signed-out': 'You are signed out.',
    timeout: 'Your session has ended. Sign in again to go on.',
    deactivated: 'Your account has been deactivated. Ask an administrator of your organisation.',
    password: 'Your password was changed. Sign in with the new one.',
    deleted: 'Your account no longer exists.',
    revoked: 'You were signed out on every device. Sign in again to go on.',
    access: 'An administrator changed what you may do here. Sign in again to go on.',
    'sso-only':
      'Your password is saved. Your organisation signs in with work accounts: choose “Continue with single sign-on”.',
  },
  problems: {
    wrong: 'The e-mail address or the password is not right.',
    deactivated: 'This account has been deactivated. Ask an administrator of your organisation.',
    'sso-email': 'Give your e-mail address, like name@example.com, to find your organisation’s sign-in.',
    'no-sso': 'No single sign-on is set up for this address. Sign in with your password.',
  },
  limited: (s) =>
    `Too many failed sign-ins. Try again in ${s} second${s === 1 ? '' : 's'}, or ask for a link to set a new password.`,
  noOrganisation: 'There is no such organisation.',
  choice: {
    title: 'Sign in with your work account',
    forEmail: (e) => `For ${e}.`,
    chooseFor: (e) => `For ${e}: choose your organisation.`,
    withPassword: 'Sign in with a password instead',
  },
  sso: {
    title: 'You are not signed in',
    back: 'Back to sign in',
    buttonExpired: 'This sign-in button has expired. Go back to the sign-in page, reload it and try again.',
    refusals: {
      state:
        'This sign-in cannot be finished: it was used already, took too long, or was started in another browser. Start again from the sign-in page.',
      disabled: (p) =>
        `Sign-in with ${p} is switched off for your organisation. Sign in another way, or ask an administrator.`,
      unknownProvider:
        'This sign-in provider does not exist (any more). Sign in another way, or ask an administrator.',
      cancelled: 'The sign-in was cancelled at the provider. Start again to sign in.',
      provider:
        'The sign-in provider did not answer as expected. Try again in a moment; if it goes on, tell an administrator.',
      'id-token':
        'The answer of the sign-in provider could not be verified, so you are not signed in. Start again; if it goes on, tell an administrator.',
      unverified: (p) =>
        `Your ${p} account has no verified e-mail address, so it cannot be matched to an ActionDesk account. Verify it at ${p}, or sign in another way.`,
      domain: (d, p) =>
        `Addresses of ${d} may not sign in to this organisation with ${p}. Use your work account.`,
      'no-account': (e) =>
        `There is no ActionDesk account for ${e} in this organisation. Ask an administrator to add you.`,
      'linked-elsewhere': (p) =>
        `Your ActionDesk account is linked to another ${p} account. Sign in with that one, or ask an administrator to remove the link.`,
      deactivated: 'Your ActionDesk account has been deactivated. Ask an administrator of your organisation.',
    },
  },
};

const nl: SignInWords = {
  title: 'Aanmelden',
  titleAt: (o) => `Aanmelden bij ${o}`,
  workAccount: 'Met uw werkaccount',
  withPassword: 'Met uw wachtwoord',
  adminsSummary: 'Beheerders: aanmelden met uw wachtwoord',
  adminsHint:
    'Aanmelden met een wachtwoord staat uit voor deze organisatie; beheerders houden het als toegang voor wanneer eenmalige aanmelding niet werkt.',
  email: 'E-mailadres',
  organisation: 'Organisatie',
  organisationHint:
    'Uw e-mailadres heeft een account in meer dan één organisatie. Kies er een en typ uw wachtwoord opnieuw.',
  password: 'Wachtwoord',
  submit: 'Aanmelden',
  forgot: 'Wachtwoord vergeten?',
  ssoHint:
    'Meldt uw organisatie zich aan met Google, Microsoft of een andere aanmeldingsdienst? Vul hierboven uw e-mailadres in en kies dan:',
  ssoButton: 'Doorgaan met eenmalige aanmelding',
  signInWith: (p) => `Aanmelden met ${p}`,
  notices: {
    'signed-out': 'U bent afgemeld.',
    timeout: 'Uw sessie is afgelopen. Meld u opnieuw aan om verder te gaan.',
    deactivated: 'Uw account is gedeactiveerd. Neem contact op met een beheerder van uw organisatie.',
    password: 'Uw wachtwoord is gewijzigd. Meld u aan met het nieuwe.',
    deleted: 'Uw account bestaat niet meer.',
    revoked: 'U bent op elk toestel afgemeld. Meld u opnieuw aan om verder te gaan.',
    access: 'Een beheerder heeft gewijzigd wat u hier mag doen. Meld u opnieuw aan om verder te gaan.',
    'sso-only':
      'Uw wachtwoord is bewaard. Uw organisatie meldt zich aan met werkaccounts: kies „Doorgaan met eenmalige aanmelding”.',
  },
  problems: {
    wrong: 'Het e-mailadres of het wachtwoord klopt niet.',
    deactivated: 'Dit account is gedeactiveerd. Neem contact op met een beheerder van uw organisatie.',
    'sso-email':
      'Vul uw e-mailadres in, zoals naam@voorbeeld.be, om de aanmelding van uw organisatie te vinden.',
    'no-sso': 'Voor dit adres is geen eenmalige aanmelding ingesteld. Meld u aan met uw wachtwoord.',
  },
  limited: (s) =>
    `Te veel mislukte aanmeldpogingen. Probeer het opnieuw over ${s} ${s === 1 ? 'seconde' : 'seconden'}, of vraag een link om een nieuw wachtwoord in te stellen.`,
  noOrganisation: 'Deze organisatie bestaat niet.',
  choice: {
    title: 'Aanmelden met uw werkaccount',
    forEmail: (e) => `Voor ${e}.`,
    chooseFor: (e) => `Voor ${e}: kies uw organisatie.`,
    withPassword: 'Liever aanmelden met een wachtwoord',
  },
  sso: {
    title: 'U bent niet aangemeld',
    back: 'Terug naar aanmelden',
    buttonExpired:
      'Deze aanmeldknop is verlopen. Ga terug naar de aanmeldpagina, laad ze opnieuw en probeer het nog eens.',
    refusals: {
      state:
        'Deze aanmelding kan niet afgerond worden: ze werd al gebruikt, duurde te lang of werd in een andere browser gestart. Begin opnieuw vanaf de aanmeldpagina.',
      disabled: (p) =>
        `Aanmelden met ${p} staat uit voor uw organisatie. Meld u op een andere manier aan, of vraag het aan een beheerder.`,
      unknownProvider:
        'Deze aanmeldingsdienst bestaat niet (meer). Meld u op een andere manier aan, of vraag het aan een beheerder.',
      cancelled: 'De aanmelding werd bij de aanmeldingsdienst geannuleerd. Begin opnieuw om u aan te melden.',
      provider:
        'De aanmeldingsdienst antwoordde niet zoals verwacht. Probeer het zo dadelijk opnieuw; blijft het probleem, verwittig dan een beheerder.',
      'id-token':
        'Het antwoord van de aanmeldingsdienst kon niet gecontroleerd worden, dus u bent niet aangemeld. Begin opnieuw; blijft het probleem, verwittig dan een beheerder.',
      unverified: (p) =>
        `Uw ${p}-account heeft geen bevestigd e-mailadres en kan dus niet aan een ActionDesk-account gekoppeld worden. Bevestig het bij ${p}, of meld u op een andere manier aan.`,
      domain: (d, p) =>
        `Adressen van ${d} mogen zich niet met ${p} aanmelden bij deze organisatie. Gebruik uw werkaccount.`,
      'no-account': (e) =>
        `Er is geen ActionDesk-account voor ${e} in deze organisatie. Vraag een beheerder om u toe te voegen.`,
      'linked-elsewhere': (p) =>
        `Uw ActionDesk-account is gekoppeld aan een ander ${p}-account. Meld u aan met dat account, of vraag een beheerder om de koppeling te verwijderen.`,
      deactivated:
        'Uw ActionDesk-account is gedeactiveerd. Neem contact op met een beheerder van uw organisatie.',
    },
  },
};

const fr: SignInWords = {
  title: 'Se connecter',
  titleAt: (o) => `Se connecter à ${o}`,
  workAccount: 'Avec votre compte professionnel',
  withPassword: 'Avec votre mot de passe',
  adminsSummary: 'Administrateurs : se connecter avec votre mot de passe',
  adminsHint:
    'La connexion par mot de passe est désactivée pour cette organisation ; les administrateurs la gardent comme accès de secours quand la connexion unique ne fonctionne pas.',
  email: 'Adresse e-mail',
  organisation: 'Organisation',
  organisationHint:
    'Votre adresse e-mail a un compte dans plusieurs organisations. Choisissez-en une et retapez votre mot de passe.',
  password: 'Mot de passe',
  submit: 'Se connecter',
  forgot: 'Mot de passe oublié ?',
  ssoHint:
    'Votre organisation se connecte-t-elle avec Google, Microsoft ou un autre service de connexion ? Indiquez votre adresse e-mail ci-dessus, puis :',
  ssoButton: 'Continuer avec la connexion unique',
  signInWith: (p) => `Se connecter avec ${p}`,
  notices: {
    'signed-out': 'Vous êtes déconnecté.',
    timeout: 'Votre session a pris fin. Reconnectez-vous pour continuer.',
    deactivated: 'Votre compte a été désactivé. Adressez-vous à un administrateur de votre organisation.',
    password: 'Votre mot de passe a été modifié. Connectez-vous avec le nouveau.',
    deleted: 'Votre compte n’existe plus.',
    revoked: 'Vous avez été déconnecté sur tous vos appareils. Reconnectez-vous pour continuer.',
    access: 'Un administrateur a modifié ce que vous pouvez faire ici. Reconnectez-vous pour continuer.',
    'sso-only':
      'Votre mot de passe est enregistré. Votre organisation se connecte avec des comptes professionnels : choisissez « Continuer avec la connexion unique ».',
  },
  problems: {
    wrong: 'L’adresse e-mail ou le mot de passe n’est pas correct.',
    deactivated: 'Ce compte a été désactivé. Adressez-vous à un administrateur de votre organisation.',
    'sso-email':
      'Indiquez votre adresse e-mail, par exemple nom@exemple.be, pour trouver la connexion de votre organisation.',
    'no-sso':
      'Aucune connexion unique n’est configurée pour cette adresse. Connectez-vous avec votre mot de passe.',
  },
  limited: (s) =>
    `Trop de tentatives de connexion échouées. Réessayez dans ${s} seconde${s === 1 ? '' : 's'}, ou demandez un lien pour définir un nouveau mot de passe.`,
  noOrganisation: 'Cette organisation n’existe pas.',
  choice: {
    title: 'Se connecter avec votre compte professionnel',
    forEmail: (e) => `Pour ${e}.`,
    chooseFor: (e) => `Pour ${e} : choisissez votre organisation.`,
    withPassword: 'Se connecter plutôt avec un mot de passe',
  },
  sso: {
    title: 'Vous n’êtes pas connecté',
    back: 'Retour à la connexion',
    buttonExpired:
      'Ce bouton de connexion a expiré. Revenez à la page de connexion, rechargez-la et réessayez.',
    refusals: {
      state:
        'Cette connexion ne peut pas aboutir : elle a déjà servi, a pris trop de temps ou a été lancée dans un autre navigateur. Recommencez depuis la page de connexion.',
      disabled: (p) =>
        `La connexion avec ${p} est désactivée pour votre organisation. Connectez-vous autrement, ou adressez-vous à un administrateur.`,
      unknownProvider:
        'Ce service de connexion n’existe pas (ou plus). Connectez-vous autrement, ou adressez-vous à un administrateur.',
      cancelled:
        'La connexion a été annulée auprès du service de connexion. Recommencez pour vous connecter.',
      provider:
        'Le service de connexion n’a pas répondu comme prévu. Réessayez dans un instant ; si cela persiste, prévenez un administrateur.',
      'id-token':
        'La réponse du service de connexion n’a pas pu être vérifiée : vous n’êtes donc pas connecté. Recommencez ; si cela persiste, prévenez un administrateur.',
      unverified: (p) =>
        `Votre compte ${p} n’a pas d’adresse e-mail vérifiée : il ne peut donc pas être associé à un compte ActionDesk. Faites-la vérifier chez ${p}, ou connectez-vous autrement.`,
      domain: (d, p) =>
        `Les adresses de ${d} ne peuvent pas se connecter à cette organisation avec ${p}. Utilisez votre compte professionnel.`,
      'no-account': (e) =>
        `Il n’y a pas de compte ActionDesk pour ${e} dans cette organisation. Demandez à un administrateur de vous ajouter.`,
      'linked-elsewhere': (p) =>
        `Votre compte ActionDesk est lié à un autre compte ${p}. Connectez-vous avec celui-là, ou demandez à un administrateur de supprimer le lien.`,
      deactivated:
        'Votre compte ActionDesk a été désactivé. Adressez-vous à un administrateur de votre organisation.',
    },
  },
};

export const signInWords: Record<Language, SignInWords> = { en, nl, fr };
