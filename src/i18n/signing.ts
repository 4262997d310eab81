// The signer's pages (modules/respondent): their wording in each language, and the consent they sign.
import type { Language } from './languages';

/** Why the signer's pages refused a step (modules/respondent decides); each has its sentence below. */
export type SigningProblem =
  | 'not-your-turn'
  | 'no-channel'
  | 'too-many-codes'
  | 'codes-blocked'
  | 'no-code'
  | 'wrong-code'
  | 'code-locked'
  | 'code-expired'
  | 'not-verified'
  | 'no-consent'
  | 'no-signature'
  | 'bad-drawing'
  | 'name-too-long'
  | 'no-reason'
  | 'reason-too-long'
  | 'decline-needs-code'
  | 'closed';

export interface SigningTexts {
  kicker: string;
  intro: (org: string) => string;
  skip: string;
  documentHeading: (pages: number) => string;
  download: string;
  pageAlt: (n: number, of: number) => string;
  pageText: (n: number) => string;
  noPreview: string;
  stepHeading: string;
  codeIntro: string;
  byEmail: (to: string) => string;
  bySms: (to: string) => string;
  sendCode: string;
  sendNewCode: string;
  sent: (how: string, until: string) => string;
  how: Record<'email' | 'sms', string>;
  codeLabel: string;
  codeHint: string;
  confirm: string;
  locked: string;
  expired: string;
  signHeading: string;
  verified: string;
  markLegend: string;
  typed: string;
  drawn: string;
  nameLabel: string;
  drawLabel: string;
  drawHint: string;
  clear: string;
  consentLabel: string;
  signButton: (title: string) => string;
  signed: (when: string) => string;
  /** Everyone has signed: the sealed document is being made (the page refreshes itself). */
  preparing: string;
  /** This signer has signed, `n` others have not yet: the document is not complete. */
  othersPending: (n: number) => string;
  waiting: (name: string) => string;
  completed: [string, string];
  downloadSigned: string;
  questionnaireFirst: (name: string) => string;
  preparingDocument: string;
  refresh: string;
  declineLink: string;
  declineHeading: string;
  declineIntro: string;
  reasonLabel: string;
  declineButton: string;
  backToDocument: string;
  declined: [string, string];
  problems: Record<SigningProblem, string>;
  triesLeft: (n: number) => string;
  /** The consent the signer gives, naming the document: it is recorded with the signature. */
  consent: (title: string) => string;
}

export const signingTexts: Record<Language, SigningTexts> = {
  nl: {
    kicker: 'Document om te ondertekenen',
    intro: (org) =>
      `${org} vraagt u dit document te ondertekenen. Lees het, bevestig met een code dat u het bent, en onderteken.`,
    skip: 'Naar het ondertekenen',
    documentHeading: (n) => `Het document (${n} ${n === 1 ? 'pagina' : 'pagina’s'})`,
    download: 'Download het document (PDF)',
    pageAlt: (n, of) => `Pagina ${n} van ${of}`,
    pageText: (n) => `Tekst van pagina ${n}`,
    noPreview:
      'Een voorbeeld van de pagina’s is hier niet beschikbaar: download het document om het te lezen.',
    stepHeading: 'Bevestig dat u het bent',
    codeIntro: 'We sturen u een code van 6 cijfers. Waar mogen we hem naartoe sturen?',
    byEmail: (to) => `Per e-mail naar ${to}`,
    bySms: (to) => `Per sms naar ${to}`,
    sendCode: 'Stuur mij een code',
    sendNewCode: 'Stuur een nieuwe code',
    sent: (how, until) => `We hebben een code gestuurd ${how}. Hij is geldig tot ${until}.`,
    how: { email: 'per e-mail', sms: 'per sms' },
    codeLabel: 'Code (6 cijfers)',
    codeHint: 'Typ de 6 cijfers uit het bericht.',
    confirm: 'Bevestigen',
    locked: 'De code is geblokkeerd na te veel verkeerde pogingen. Vraag een nieuwe code.',
    expired: 'De code is verlopen. Vraag een nieuwe code.',
    signHeading: 'Onderteken',
    verified: 'U bent bevestigd. Kies hoe u ondertekent.',
    markLegend: 'Uw handtekening',
    typed: 'Mijn naam typen',
    drawn: 'Mijn handtekening tekenen',
    nameLabel: 'Uw volledige naam',
    drawLabel: 'Tekenvlak voor uw handtekening',
    drawHint: 'Teken met uw vinger, pen of muis.',
    clear: 'Wissen',
    consentLabel: 'Ik ga akkoord:',
    signButton: (t) => `«${t}» ondertekenen`,
    signed: (w) => `U hebt ondertekend op ${w}. Bedankt!`,
    preparing:
      'Iedereen heeft ondertekend. Het ondertekende document wordt nu klaargemaakt: deze pagina toont het zodra het klaar is, en u krijgt uw exemplaar ook per e-mail.',
    othersPending: (n) =>
      `Het document is pas volledig als ${n === 1 ? 'de andere ondertekenaar' : `de ${n} andere ondertekenaars`} ook ${n === 1 ? 'heeft' : 'hebben'} ondertekend. Dan krijgt u uw ondertekend exemplaar per e-mail.`,
    waiting: (n) => `${n} moet eerst ondertekenen. U krijgt een bericht zodra het uw beurt is.`,
    downloadSigned: 'Download uw exemplaar van het ondertekende document (PDF)',
    questionnaireFirst: (n) =>
      `${n || 'Uw medeondertekenaar'} vult eerst de vragenlijst in. U krijgt een bericht zodra het document klaar is om te ondertekenen.`,
    preparingDocument:
      'Uw antwoorden zijn ontvangen. Het document om te ondertekenen wordt klaargemaakt; deze pagina ververst vanzelf.',
    refresh: 'Pagina vernieuwen',
    completed: [
      'Ondertekend',
      'Het document is door iedereen ondertekend en verzegeld. U kunt dit venster sluiten.',
    ],
    declineLink: 'Ik wil niet ondertekenen',
    declineHeading: 'Weigeren te ondertekenen',
    declineIntro: 'Laat uw adviseur weten waarom u niet ondertekent. Daarna werkt deze link niet meer.',
    reasonLabel: 'Reden',
    declineButton: 'Weigeren',
    backToDocument: 'Terug naar het document',
    declined: ['Geweigerd', 'Het ondertekenen is geweigerd. Uw adviseur is op de hoogte.'],
    problems: {
      'not-your-turn': 'Het is nog niet uw beurt om te ondertekenen.',
      'no-channel': 'Kies hoe we u de code sturen.',
      'too-many-codes': 'U hebt het afgelopen uur al 5 codes gevraagd. Probeer het later opnieuw.',
      'codes-blocked': 'Er werden te veel verkeerde codes getypt. Neem contact op met uw adviseur.',
      'no-code': 'Vraag eerst een code.',
      'wrong-code': 'Deze code klopt niet.',
      'code-locked': 'De code is geblokkeerd na 5 verkeerde pogingen. Vraag een nieuwe code.',
      'code-expired': 'De code is verlopen. Vraag een nieuwe code.',
      'not-verified': 'Bevestig eerst met een code dat u het bent.',
      'no-consent': 'Vink het akkoord aan om te ondertekenen.',
      'no-signature': 'Typ uw naam of teken uw handtekening.',
      'bad-drawing': 'De tekening kon niet gelezen worden. Teken opnieuw of typ uw naam.',
      'name-too-long': 'Uw naam mag hoogstens 100 tekens lang zijn.',
      'no-reason': 'Geef een reden.',
      'reason-too-long': 'De reden mag hoogstens 1000 tekens lang zijn.',
      'decline-needs-code':
        'Om te weigeren bevestigt u eerst met een eenmalige code dat u het bent, net als om te ondertekenen. Ga terug naar het document en vraag een code.',
      closed: 'Dit document kan niet meer ondertekend worden.',
    },
    triesLeft: (n) => `Nog ${n} ${n === 1 ? 'poging' : 'pogingen'}.`,
    consent: (title) =>
      `Ik heb «${title}» gelezen en onderteken het elektronisch. Ik aanvaard dat deze elektronische handtekening mij bindt zoals mijn handgeschreven handtekening.`,
  },
  fr: {
    kicker: 'Document à signer',
    intro: (org) =>
      `${org} vous demande de signer ce document. Lisez-le, confirmez votre identité avec un code, puis signez.`,
    skip: 'Aller à la signature',
    documentHeading: (n) => `Le document (${n} page${n === 1 ? '' : 's'})`,
    download: 'Télécharger le document (PDF)',
    pageAlt: (n, of) => `Page ${n} sur ${of}`,
    pageText: (n) => `Texte de la page ${n}`,
    noPreview: 'L’aperçu des pages n’est pas disponible ici : téléchargez le document pour le lire.',
    stepHeading: 'Confirmez votre identité',
    codeIntro: 'Nous vous envoyons un code de 6 chiffres. Où devons-nous l’envoyer ?',
    byEmail: (to) => `Par e-mail à ${to}`,
    bySms: (to) => `Par SMS au ${to}`,
    sendCode: 'Envoyez-moi un code',
    sendNewCode: 'Envoyer un nouveau code',
    sent: (how, until) => `Nous avons envoyé un code ${how}. Il est valable jusqu’à ${until}.`,
    how: { email: 'par e-mail', sms: 'par SMS' },
    codeLabel: 'Code (6 chiffres)',
    codeHint: 'Tapez les 6 chiffres du message.',
    confirm: 'Confirmer',
    locked: 'Le code est bloqué après trop d’essais erronés. Demandez un nouveau code.',
    expired: 'Le code a expiré. Demandez un nouveau code.',
    signHeading: 'Signez',
    verified: 'Votre identité est confirmée. Choisissez comment signer.',
    markLegend: 'Votre signature',
    typed: 'Taper mon nom',
    drawn: 'Dessiner ma signature',
    nameLabel: 'Votre nom complet',
    drawLabel: 'Zone de dessin de votre signature',
    drawHint: 'Dessinez avec le doigt, un stylet ou la souris.',
    clear: 'Effacer',
    consentLabel: 'J’accepte :',
    signButton: (t) => `Signer « ${t} »`,
    signed: (w) => `Vous avez signé le ${w}. Merci !`,
    preparing:
      'Tout le monde a signé. Le document signé est en préparation : cette page l’affiche dès qu’il est prêt, et vous recevrez aussi votre exemplaire par e-mail.',
    othersPending: (n) =>
      `Le document ne sera complet que lorsque ${n === 1 ? 'l’autre signataire aura' : `les ${n} autres signataires auront`} signé aussi. Vous recevrez alors votre exemplaire signé par e-mail.`,
    waiting: (n) => `${n} doit signer d’abord. Vous recevrez un message quand ce sera votre tour.`,
    downloadSigned: 'Télécharger votre exemplaire du document signé (PDF)',
    questionnaireFirst: (n) =>
      `${n || 'Votre cosignataire'} remplit d’abord le questionnaire. Vous recevrez un message quand le document sera prêt à signer.`,
    preparingDocument:
      'Vos réponses sont reçues. Le document à signer est en préparation ; cette page se met à jour d’elle-même.',
    refresh: 'Actualiser la page',
    completed: ['Signé', 'Le document est signé par tous et scellé. Vous pouvez fermer cette fenêtre.'],
    declineLink: 'Je ne veux pas signer',
    declineHeading: 'Refuser de signer',
    declineIntro:
      'Dites à votre conseiller pourquoi vous ne signez pas. Ce lien ne fonctionnera plus ensuite.',
    reasonLabel: 'Raison',
    declineButton: 'Refuser',
    backToDocument: 'Retour au document',
    declined: ['Refusé', 'La signature a été refusée. Votre conseiller en est informé.'],
    problems: {
      'not-your-turn': 'Ce n’est pas encore votre tour de signer.',
      'no-channel': 'Choisissez comment recevoir le code.',
      'too-many-codes': 'Vous avez déjà demandé 5 codes cette heure-ci. Réessayez plus tard.',
      'codes-blocked': 'Trop de codes erronés ont été saisis. Contactez votre conseiller.',
      'no-code': 'Demandez d’abord un code.',
      'wrong-code': 'Ce code n’est pas correct.',
      'code-locked': 'Le code est bloqué après 5 essais erronés. Demandez un nouveau code.',
      'code-expired': 'Le code a expiré. Demandez un nouveau code.',
      'not-verified': 'Confirmez d’abord votre identité avec un code.',
      'no-consent': 'Cochez l’accord pour signer.',
      'no-signature': 'Tapez votre nom ou dessinez votre signature.',
      'bad-drawing': 'Le dessin n’a pas pu être lu. Redessinez ou tapez votre nom.',
      'name-too-long': 'Votre nom ne peut dépasser 100 caractères.',
      'no-reason': 'Indiquez une raison.',
      'reason-too-long': 'La raison ne peut dépasser 1000 caractères.',
      'decline-needs-code':
        'Pour refuser, confirmez d’abord que c’est bien vous avec un code à usage unique, comme pour signer. Revenez au document et demandez un code.',
      closed: 'Ce document ne peut plus être signé.',
    },
    triesLeft: (n) => `Encore ${n} essai${n === 1 ? '' : 's'}.`,
    consent: (title) =>
      `J’ai lu « ${title} » et je le signe électroniquement. J’accepte que cette signature électronique m’engage comme ma signature manuscrite.`,
  },
  en: {
    kicker: 'Document to sign',
    intro: (org) =>
      `${org} asks you to sign this document. Read it, confirm it is you with a code, then sign.`,
    skip: 'Go to signing',
    documentHeading: (n) => `The document (${n} page${n === 1 ? '' : 's'})`,
    download: 'Download the document (PDF)',
    pageAlt: (n, of) => `Page ${n} of ${of}`,
    pageText: (n) => `Text of page ${n}`,
    noPreview: 'A preview of the pages is not available here: download the document to read it.',
    stepHeading: 'Confirm it is you',
    codeIntro: 'We send you a 6-digit code. Where should we send it?',
    byEmail: (to) => `By e-mail to ${to}`,
    bySms: (to) => `By text message to ${to}`,
    sendCode: 'Send me a code',
    sendNewCode: 'Send a new code',
    sent: (how, until) => `We sent a code ${how}. It is valid until ${until}.`,
    how: { email: 'by e-mail', sms: 'by text message' },
    codeLabel: 'Code (6 digits)',
    codeHint: 'Type the 6 digits from the message.',
    confirm: 'Confirm',
    locked: 'The code is locked after too many wrong tries. Ask for a new code.',
    expired: 'The code has expired. Ask for a new code.',
    signHeading: 'Sign',
    verified: 'You are confirmed. Choose how to sign.',
    markLegend: 'Your signature',
    typed: 'Type my name',
    drawn: 'Draw my signature',
    nameLabel: 'Your full name',
    drawLabel: 'Drawing area for your signature',
    drawHint: 'Draw with your finger, a pen or the mouse.',
    clear: 'Clear',
    consentLabel: 'I agree:',
    signButton: (t) => `Sign “${t}”`,
    signed: (w) => `You signed on ${w}. Thank you!`,
    preparing:
      'Everyone has signed. The signed document is being prepared: this page shows it as soon as it is ready, and you will also receive your copy by e-mail.',
    othersPending: (n) =>
      `The document is complete only once ${n === 1 ? 'the other signer has' : `the ${n} other signers have`} signed too. You will then receive your signed copy by e-mail.`,
    waiting: (n) => `${n} signs first. You will get a message when it is your turn.`,
    downloadSigned: 'Download your copy of the signed document (PDF)',
    questionnaireFirst: (n) =>
      `${n || 'Your co-signer'} fills in the questionnaire first. You will get a message when the document is ready to sign.`,
    preparingDocument:
      'Your answers are in. The document to sign is being prepared; this page refreshes by itself.',
    refresh: 'Refresh the page',
    completed: ['Signed', 'The document is signed by everyone and sealed. You can close this window.'],
    declineLink: 'I do not want to sign',
    declineHeading: 'Decline to sign',
    declineIntro: 'Tell your adviser why you do not sign. This link stops working afterwards.',
    reasonLabel: 'Reason',
    declineButton: 'Decline',
    backToDocument: 'Back to the document',
    declined: ['Declined', 'Signing was declined. Your adviser has been told.'],
    problems: {
      'not-your-turn': 'It is not your turn to sign yet.',
      'no-channel': 'Choose how we send you the code.',
      'too-many-codes': 'You asked for 5 codes in the last hour already. Try again later.',
      'codes-blocked': 'Too many wrong codes were typed. Please contact your adviser.',
      'no-code': 'Ask for a code first.',
      'wrong-code': 'That code is not right.',
      'code-locked': 'The code is locked after 5 wrong tries. Ask for a new code.',
      'code-expired': 'The code has expired. Ask for a new code.',
      'not-verified': 'Confirm it is you with a code first.',
      'no-consent': 'Tick the agreement to sign.',
      'no-signature': 'Type your name or draw your signature.',
      'bad-drawing': 'The drawing could not be read. Draw again or type your name.',
      'name-too-long': 'Your name can be at most 100 characters long.',
      'no-reason': 'Give a reason.',
      'reason-too-long': 'The reason can be at most 1000 characters long.',
      'decline-needs-code':
        'To decline, first confirm with a one-time code that it is you, as you would to sign. Go back to the document and ask for a code.',
      closed: 'This document can no longer be signed.',
    },
    triesLeft: (n) => `${n} ${n === 1 ? 'try' : 'tries'} left.`,
    consent: (title) =>
      `I have read “${title}” and sign it electronically. I agree that this electronic signature binds me as my handwritten signature does.`,
  },
};
