// One action's page on the desk in each language: its facts, its buttons and their confirmations, its
// signers, documents and messages, and its timeline told in sentences.
import type { Language } from './languages';

type Purpose = 'invitation' | 'reminder1' | 'reminder2' | 'reopened';
type JobStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'cancelled';

export interface ActionWords {
  back: string;
  title: (kind: string, contact: string | null) => string;
  /** The heading before the contact's name (a link). */
  titleLead: (kind: string) => string;
  notices: { withdrawn: string; reopened: string; resent: string };
  facts: {
    status: string;
    document: string;
    templates: string;
    language: string;
    link: string;
    created: string;
    expires: string;
    createdBy: string;
    order: string;
    inOrder: string;
    atOnce: string;
  };
  withdraw: string;
  withdrawConfirm: string;
  reopen: string;
  reopenEmail: string;
  reopenConfirm: string;
  resend: string;
  resendHint: string;
  signers: string;
  signer: string;
  signerStatus: string;
  opened: string;
  signed: string;
  results: string;
  preparing: string;
  download: string;
  submissions: (n: number) => string;
  nothingYet: string;
  timeline: string;
  messages: string;
  message: string;
  channel: string;
  messageStatus: string;
  dueOrSent: string;
  problem: string;
  noMessages: string;
  purposes: Record<Purpose, string>;
  jobStatuses: Record<JobStatus, string>;
  integration: string;
  system: string;
  story: {
    created: (who: string) => string;
    createdAndSent: (who: string) => string;
    sent: string;
    opened: (contact: string) => string;
    completed: (contact: string) => string;
    allSigned: string;
    reopened: (who: string) => string;
    deactivated: (who: string) => string;
    expired: string;
    declined: (contact: string) => string;
    signerOpened: (signer: string) => string;
    codeSent: (signer: string, channel: string) => string;
    signerSigned: (signer: string, title: string) => string;
    signerDeclined: (signer: string, reason: string | null) => string;
    messageSent: (purpose: string, to: string, channel: string) => string;
    messageFailed: (purpose: string, to: string, channel: string) => string;
    messagePlanned: (purpose: string, to: string, channel: string) => string;
  };
}

export const actionWords: Record<Language, ActionWords> = {
  en: {
    back: '← Actions',
    title: (kind, contact) => (contact ? `${kind} for ${contact}` : `${kind}: a campaign`),
    titleLead: (kind) => `${kind} for `,
    notices: {
      withdrawn: 'The action was withdrawn: its link no longer works.',
      reopened: 'The action is open again.',
      resent: 'The invitation is on its way again.',
    },
    facts: {
      status: 'Status',
      document: 'Document',
      templates: 'Templates',
      language: 'Language',
      link: 'Link',
      created: 'Created',
      expires: 'Works until',
      createdBy: 'Sent by',
      order: 'Signing order',
      inOrder: 'One after the other',
      atOnce: 'All at once',
    },
    withdraw: 'Withdraw',
    withdrawConfirm:
      'Withdraw this action? The contact’s link stops working at once and the reminders still to come are cancelled. This cannot be undone.',
    reopen: 'Reopen',
    reopenEmail: 'E-mail the contact that it is open again',
    reopenConfirm:
      'Reopen this action? The contact’s link works again, so they can change their answers and submit them once more.',
    resend: 'Send the invitation again',
    resendHint: 'Now, by the same channels, to whoever has not answered yet.',
    signers: 'Signers',
    signer: 'Signer',
    signerStatus: 'Status',
    opened: 'Opened',
    signed: 'Signed',
    results: 'Answers and documents',
    preparing: 'The documents are being made.',
    download: 'Download',
    submissions: (n) => `${n} submissions; the latest is shown.`,
    nothingYet: 'Nothing submitted yet.',
    timeline: 'What happened',
    messages: 'Messages',
    message: 'Message',
    channel: 'Channel',
    messageStatus: 'Status',
    dueOrSent: 'Due or sent',
    problem: 'Problem',
    noMessages: 'None.',
    purposes: {
      invitation: 'Invitation',
      reminder1: 'First reminder',
      reminder2: 'Second reminder',
      reopened: 'Open-again notice',
    },
    jobStatuses: {
      pending: 'Planned',
      sending: 'Sending',
      sent: 'Sent',
      failed: 'Not delivered',
      cancelled: 'Cancelled',
    },
    integration: 'An integration',
    system: 'ActionDesk',
    story: {
      created: (who) => `${who} created the action.`,
      createdAndSent: (who) => `${who} created and sent the action.`,
      sent: 'The action was sent.',
      opened: (c) => `${c} opened the link.`,
      completed: (c) => `${c} completed it.`,
      allSigned: 'Everyone signed: the action is complete.',
      reopened: (who) => `${who} reopened it.`,
      deactivated: (who) => `${who} withdrew it.`,
      expired: 'It expired: the link no longer works.',
      declined: (c) => `${c} declined.`,
      signerOpened: (g) => `${g} opened their link.`,
      codeSent: (g, ch) => `A signing code went to ${g} by ${ch}.`,
      signerSigned: (g, t) => `${g} signed ‘${t}’.`,
      signerDeclined: (g, r) => (r ? `${g} declined: “${r}”` : `${g} declined.`),
      messageSent: (p, to, ch) => `${p} sent to ${to} by ${ch}.`,
      messageFailed: (p, to, ch) => `${p} to ${to} by ${ch} could not be delivered.`,
      messagePlanned: (p, to, ch) => `${p} to ${to} by ${ch} is planned.`,
    },
  },
  nl: {
    back: '← Acties',
    title: (kind, contact) => (contact ? `${kind} voor ${contact}` : `${kind}: een campagne`),
    titleLead: (kind) => `${kind} voor `,
    notices: {
      withdrawn: 'De actie is ingetrokken: de link werkt niet meer.',
      reopened: 'De actie is opnieuw open.',
      resent: 'De uitnodiging is opnieuw onderweg.',
    },
    facts: {
      status: 'Status',
      document: 'Document',
      templates: 'Vragenlijsten',
      language: 'Taal',
      link: 'Link',
      created: 'Aangemaakt',
      expires: 'Werkt tot',
      createdBy: 'Verstuurd door',
      order: 'Volgorde van ondertekenen',
      inOrder: 'Na elkaar',
      atOnce: 'Allemaal tegelijk',
    },
    withdraw: 'Intrekken',
    withdrawConfirm:
      'Deze actie intrekken? De link van het contact werkt meteen niet meer en de herinneringen die nog zouden volgen, vervallen. Dit kan niet ongedaan worden gemaakt.',
    reopen: 'Heropenen',
    reopenEmail: 'Het contact mailen dat ze opnieuw open is',
    reopenConfirm:
      'Deze actie heropenen? De link van het contact werkt opnieuw, zodat het de antwoorden kan wijzigen en nog eens indienen.',
    resend: 'Uitnodiging opnieuw versturen',
    resendHint: 'Nu, langs dezelfde kanalen, naar wie nog niet antwoordde.',
    signers: 'Ondertekenaars',
    signer: 'Ondertekenaar',
    signerStatus: 'Status',
    opened: 'Geopend',
    signed: 'Ondertekend',
    results: 'Antwoorden en documenten',
    preparing: 'De documenten worden gemaakt.',
    download: 'Downloaden',
    submissions: (n) => `${n} inzendingen; de laatste staat hier.`,
    nothingYet: 'Nog niets ingediend.',
    timeline: 'Wat er gebeurde',
    messages: 'Berichten',
    message: 'Bericht',
    channel: 'Kanaal',
    messageStatus: 'Status',
    dueOrSent: 'Gepland of verstuurd',
    problem: 'Probleem',
    noMessages: 'Geen.',
    purposes: {
      invitation: 'Uitnodiging',
      reminder1: 'Eerste herinnering',
      reminder2: 'Tweede herinnering',
      reopened: 'Melding heropend',
    },
    jobStatuses: {
      pending: 'Gepland',
      sending: 'Wordt verstuurd',
      sent: 'Verstuurd',
      failed: 'Niet afgeleverd',
      cancelled: 'Geannuleerd',
    },
    integration: 'Een koppeling',
    system: 'ActionDesk',
    story: {
      created: (who) => `${who} maakte de actie aan.`,
      createdAndSent: (who) => `${who} maakte de actie aan en verstuurde ze.`,
      sent: 'De actie werd verstuurd.',
      opened: (c) => `${c} opende de link.`,
      completed: (c) => `${c} voltooide ze.`,
      allSigned: 'Iedereen ondertekende: de actie is voltooid.',
      reopened: (who) => `${who} heropende ze.`,
      deactivated: (who) => `${who} trok ze in.`,
      expired: 'Ze is verlopen: de link werkt niet meer.',
      declined: (c) => `${c} weigerde.`,
      signerOpened: (g) => `${g} opende de eigen link.`,
      codeSent: (g, ch) => `Een ondertekeningscode ging naar ${g} per ${ch}.`,
      signerSigned: (g, t) => `${g} ondertekende ‘${t}’.`,
      signerDeclined: (g, r) => (r ? `${g} weigerde: “${r}”` : `${g} weigerde.`),
      messageSent: (p, to, ch) => `${p} verstuurd naar ${to} per ${ch}.`,
      messageFailed: (p, to, ch) => `${p} naar ${to} per ${ch} kon niet worden afgeleverd.`,
      messagePlanned: (p, to, ch) => `${p} naar ${to} per ${ch} is gepland.`,
    },
  },
  fr: {
    back: '← Actions',
    title: (kind, contact) => (contact ? `${kind} pour ${contact}` : `${kind} : une campagne`),
    titleLead: (kind) => `${kind} pour `,
    notices: {
      withdrawn: 'L’action a été retirée : son lien ne fonctionne plus.',
      reopened: 'L’action est de nouveau ouverte.',
      resent: 'L’invitation est de nouveau en route.',
    },
    facts: {
      status: 'Statut',
      document: 'Document',
      templates: 'Questionnaires',
      language: 'Langue',
      link: 'Lien',
      created: 'Créée',
      expires: 'Valable jusqu’au',
      createdBy: 'Envoyée par',
      order: 'Ordre de signature',
      inOrder: 'L’un après l’autre',
      atOnce: 'Tous en même temps',
    },
    withdraw: 'Retirer',
    withdrawConfirm:
      'Retirer cette action ? Le lien du contact cesse aussitôt de fonctionner et les rappels encore prévus sont annulés. C’est irréversible.',
    reopen: 'Rouvrir',
    reopenEmail: 'Prévenir le contact par e-mail qu’elle est rouverte',
    reopenConfirm:
      'Rouvrir cette action ? Le lien du contact fonctionne à nouveau : il peut modifier ses réponses et les soumettre une nouvelle fois.',
    resend: 'Renvoyer l’invitation',
    resendHint: 'Maintenant, par les mêmes canaux, à ceux qui n’ont pas encore répondu.',
    signers: 'Signataires',
    signer: 'Signataire',
    signerStatus: 'Statut',
    opened: 'Ouvert',
    signed: 'Signé',
    results: 'Réponses et documents',
    preparing: 'Les documents sont en préparation.',
    download: 'Télécharger',
    submissions: (n) => `${n} soumissions ; la dernière est affichée.`,
    nothingYet: 'Rien n’a encore été soumis.',
    timeline: 'Ce qui s’est passé',
    messages: 'Messages',
    message: 'Message',
    channel: 'Canal',
    messageStatus: 'Statut',
    dueOrSent: 'Prévu ou envoyé',
    problem: 'Problème',
    noMessages: 'Aucun.',
    purposes: {
      invitation: 'Invitation',
      reminder1: 'Premier rappel',
      reminder2: 'Second rappel',
      reopened: 'Avis de réouverture',
    },
    jobStatuses: {
      pending: 'Prévu',
      sending: 'En cours d’envoi',
      sent: 'Envoyé',
      failed: 'Non remis',
      cancelled: 'Annulé',
    },
    integration: 'Une intégration',
    system: 'ActionDesk',
    story: {
      created: (who) => `${who} a créé l’action.`,
      createdAndSent: (who) => `${who} a créé et envoyé l’action.`,
      sent: 'L’action a été envoyée.',
      opened: (c) => `${c} a ouvert le lien.`,
      completed: (c) => `${c} l’a terminée.`,
      allSigned: 'Tout le monde a signé : l’action est terminée.',
      reopened: (who) => `${who} l’a rouverte.`,
      deactivated: (who) => `${who} l’a retirée.`,
      expired: 'Elle a expiré : le lien ne fonctionne plus.',
      declined: (c) => `${c} a refusé.`,
      signerOpened: (g) => `${g} a ouvert son lien.`,
      codeSent: (g, ch) => `Un code de signature a été envoyé à ${g} par ${ch}.`,
      signerSigned: (g, t) => `${g} a signé « ${t} ».`,
      signerDeclined: (g, r) => (r ? `${g} a refusé : « ${r} »` : `${g} a refusé.`),
      messageSent: (p, to, ch) => `${p} envoyée à ${to} par ${ch}.`,
      messageFailed: (p, to, ch) => `${p} à ${to} par ${ch} n’a pas pu être remise.`,
      messagePlanned: (p, to, ch) => `${p} à ${to} par ${ch} est prévue.`,
    },
  },
};
