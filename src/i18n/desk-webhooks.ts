// The desk's webhook pages in each language: the list on the Integrations page, the form that adds or
// changes one, and a webhook's own page with its messages.
import type { Language } from './languages';

export type WebhookNotice =
  | 'created'
  | 'saved'
  | 'rotated'
  | 'enabled'
  | 'disabled'
  | 'deleted'
  | 'redelivered';

export interface WebhookWords {
  list: {
    heading: string;
    intro: string;
    caption: string;
    address: string;
    events: string;
    allEvents: string;
    description: string;
    status: string;
    failingSince: string;
    disabledAfterFailures: string;
    none: string;
    add: string;
    addressHint: string;
    eventsLegend: string;
    eventsHint: string;
    everyEvent: string;
    addButton: string;
    /** Each event type (src/platform/events/event-types.ts) in words. */
    eventNames: Record<string, string>;
    noAddress: string;
    noEvents: string;
    addressRefused: (why: string) => string;
    notices: Record<WebhookNotice, string>;
  };
  page: {
    back: string;
    secretOf: string;
    secrets: string;
    currentSince: string;
    replacedUntil: string;
    created: string;
    test: string;
    rotate: string;
    confirmRotate: string;
    enable: string;
    disable: string;
    confirmDisable: string;
    remove: string;
    confirmRemove: string;
    testDelivered: (status: number, ms: number) => string;
    testFailed: (reason: string) => string;
    answer: string;
    change: string;
    save: string;
    deliveries: (n: number) => string;
    deliveriesCaption: string;
    statusFilter: string;
    anyStatus: string;
    show: string;
    deliveryStatus: Record<string, string>;
    event: string;
    queued: string;
    attempts: string;
    lastAttempt: string;
    nextAttempt: string;
    answered: string;
    noAnswer: string;
    error: string;
    sent: string;
    body: string;
    redeliver: string;
    redeliverLabel: (event: string) => string;
    noDeliveries: string;
    previous: string;
    next: string;
  };
}

const en: WebhookWords = {
  list: {
    heading: 'Webhooks',
    intro:
      'When something happens (an action is completed, a contact changes), the service sends a signed message to your software’s address at once, and tries again for three days if it does not answer.',
    caption: 'Webhooks',
    address: 'Address',
    events: 'Events',
    allEvents: 'All events',
    description: 'Description',
    status: 'Status',
    failingSince: 'failing since',
    disabledAfterFailures: 'disabled by the service after three days without a delivered message',
    none: 'No webhook yet.',
    add: 'Add a webhook',
    addressHint: 'Your software’s https address that receives the messages.',
    eventsLegend: 'Send',
    eventsHint: 'Every event, or only those you tick.',
    everyEvent: 'Every event, also those added later',
    addButton: 'Add the webhook',
    eventNames: {
      'sessionrequest.created': 'An action is created',
      'sessionrequest.sent': 'An action’s invitation is sent',
      'sessionrequest.opened': 'A contact opens an action',
      'sessionrequest.completed': 'An action is completed',
      'sessionrequest.reopened': 'An action is reopened',
      'sessionrequest.deactivated': 'An action is withdrawn',
      'sessionrequest.expired': 'An action expires',
      'sessionrequest.declined': 'An action is declined',
      'sessionrequest.deleted': 'An action is deleted',
      'session.submitted': 'A contact submits answers',
      'session.deleted': 'Answers are deleted',
      'signature.signed': 'A signer signs',
      'signature.declined': 'A signer declines',
      'customer.created': 'A contact is added',
      'customer.updated': 'A contact is changed',
      'customer.deleted': 'A contact is deleted',
      'file.created': 'A document is added',
      'file.deleted': 'A document is deleted',
    },
    noAddress: 'Address: give the address that receives the messages.',
    noEvents: 'Send: tick at least one event.',
    addressRefused: (why) => `Address: refused (${why}).`,
    notices: {
      created: 'The webhook was added.',
      saved: 'The webhook was saved.',
      rotated:
        'The webhook has a new signing secret. The previous one goes on signing beside it for 24 hours, then stops.',
      enabled: 'The webhook is enabled again.',
      disabled: 'The webhook is disabled: nothing is sent to it; queued messages were cancelled.',
      deleted: 'The webhook was deleted.',
      redelivered: 'The message is being sent again.',
    },
  },
  page: {
    back: '← Integrations',
    secretOf: 'The signing secret of this webhook',
    secrets: 'Signing secrets',
    currentSince: 'current since',
    replacedUntil: 'replaced, signs until',
    created: 'Added',
    test: 'Send a test message',
    rotate: 'New signing secret',
    confirmRotate:
      'Make a new signing secret? The current one goes on signing beside it for 24 hours, then stops: give the new one to your software in that time.',
    enable: 'Enable',
    disable: 'Disable',
    confirmDisable:
      'Disable this webhook? Nothing is sent to it until it is enabled again; messages waiting to be sent are cancelled (you can send them again later).',
    remove: 'Delete',
    confirmRemove: 'Delete this webhook with its list of messages? This cannot be undone.',
    testDelivered: (status, ms) =>
      `The test message was delivered: your software answered ${status} in ${ms} ms.`,
    testFailed: (reason) => `The test message was not delivered: ${reason}.`,
    answer: 'Its answer',
    change: 'Change the webhook',
    save: 'Save',
    deliveries: (n) => `Messages sent (${n})`,
    deliveriesCaption: 'Messages sent to this webhook, newest first',
    statusFilter: 'Status',
    anyStatus: 'Any status',
    show: 'Show',
    deliveryStatus: { pending: 'waiting', succeeded: 'delivered', failed: 'failed', cancelled: 'cancelled' },
    event: 'Event',
    queued: 'Queued',
    attempts: 'Attempts',
    lastAttempt: 'Last attempt',
    nextAttempt: 'Next attempt',
    answered: 'Answer',
    noAnswer: 'none',
    error: 'Problem',
    sent: 'What was sent',
    body: 'Answer received',
    redeliver: 'Send again',
    redeliverLabel: (event) => `Send again: ${event}`,
    noDeliveries: 'No message yet.',
    previous: 'Newer',
    next: 'Older',
  },
};

const nl: WebhookWords = {
  list: {
    heading: 'Webhooks',
    intro:
      'Als er iets gebeurt (een actie is afgerond, een contact wijzigt), stuurt de dienst meteen een ondertekend bericht naar het adres van uw software, en probeert het drie dagen opnieuw als die niet antwoordt.',
    caption: 'Webhooks',
    address: 'Adres',
    events: 'Gebeurtenissen',
    allEvents: 'Alle gebeurtenissen',
    description: 'Omschrijving',
    status: 'Status',
    failingSince: 'mislukt sinds',
    disabledAfterFailures: 'uitgeschakeld door de dienst na drie dagen zonder afgeleverd bericht',
    none: 'Nog geen webhook.',
    add: 'Een webhook toevoegen',
    addressHint: 'Het https-adres van uw software dat de berichten ontvangt.',
    eventsLegend: 'Versturen',
    eventsHint: 'Elke gebeurtenis, of alleen wat u aanvinkt.',
    everyEvent: 'Elke gebeurtenis, ook die later bijkomen',
    addButton: 'De webhook toevoegen',
    eventNames: {
      'sessionrequest.created': 'Een actie wordt aangemaakt',
      'sessionrequest.sent': 'De uitnodiging van een actie wordt verstuurd',
      'sessionrequest.opened': 'Een contact opent een actie',
      'sessionrequest.completed': 'Een actie is afgerond',
      'sessionrequest.reopened': 'Een actie wordt heropend',
      'sessionrequest.deactivated': 'Een actie wordt ingetrokken',
      'sessionrequest.expired': 'Een actie verloopt',
      'sessionrequest.declined': 'Een actie wordt geweigerd',
      'sessionrequest.deleted': 'Een actie wordt verwijderd',
      'session.submitted': 'Een contact dient antwoorden in',
      'session.deleted': 'Antwoorden worden verwijderd',
      'signature.signed': 'Een ondertekenaar tekent',
      'signature.declined': 'Een ondertekenaar weigert',
      'customer.created': 'Een contact wordt toegevoegd',
      'customer.updated': 'Een contact wordt gewijzigd',
      'customer.deleted': 'Een contact wordt verwijderd',
      'file.created': 'Een document wordt toegevoegd',
      'file.deleted': 'Een document wordt verwijderd',
    },
    noAddress: 'Adres: geef het adres dat de berichten ontvangt.',
    noEvents: 'Versturen: vink minstens één gebeurtenis aan.',
    addressRefused: (why) => `Adres: geweigerd (${why}).`,
    notices: {
      created: 'De webhook is toegevoegd.',
      saved: 'De webhook is bewaard.',
      rotated:
        'De webhook heeft een nieuw geheim om te ondertekenen. Het vorige tekent er nog 24 uur naast, daarna niet meer.',
      enabled: 'De webhook is weer ingeschakeld.',
      disabled:
        'De webhook is uitgeschakeld: er wordt niets meer naar gestuurd; wachtende berichten zijn geannuleerd.',
      deleted: 'De webhook is verwijderd.',
      redelivered: 'Het bericht wordt opnieuw verstuurd.',
    },
  },
  page: {
    back: '← Koppelingen',
    secretOf: 'Het geheim waarmee deze webhook ondertekent',
    secrets: 'Geheimen',
    currentSince: 'huidig sinds',
    replacedUntil: 'vervangen, tekent tot',
    created: 'Toegevoegd',
    test: 'Een testbericht sturen',
    rotate: 'Nieuw geheim',
    confirmRotate:
      'Een nieuw geheim maken? Het huidige tekent er nog 24 uur naast, daarna niet meer: geef het nieuwe in die tijd aan uw software.',
    enable: 'Inschakelen',
    disable: 'Uitschakelen',
    confirmDisable:
      'Deze webhook uitschakelen? Er wordt niets naar gestuurd tot hij weer ingeschakeld is; wachtende berichten worden geannuleerd (u kunt ze later opnieuw sturen).',
    remove: 'Verwijderen',
    confirmRemove:
      'Deze webhook met zijn lijst van berichten verwijderen? Dit kan niet ongedaan gemaakt worden.',
    testDelivered: (status, ms) =>
      `Het testbericht is afgeleverd: uw software antwoordde ${status} in ${ms} ms.`,
    testFailed: (reason) => `Het testbericht is niet afgeleverd: ${reason}.`,
    answer: 'Het antwoord',
    change: 'De webhook wijzigen',
    save: 'Bewaren',
    deliveries: (n) => `Verstuurde berichten (${n})`,
    deliveriesCaption: 'Berichten aan deze webhook, nieuwste eerst',
    statusFilter: 'Status',
    anyStatus: 'Elke toestand',
    show: 'Tonen',
    deliveryStatus: {
      pending: 'wacht',
      succeeded: 'afgeleverd',
      failed: 'mislukt',
      cancelled: 'geannuleerd',
    },
    event: 'Gebeurtenis',
    queued: 'Klaargezet',
    attempts: 'Pogingen',
    lastAttempt: 'Laatste poging',
    nextAttempt: 'Volgende poging',
    answered: 'Antwoord',
    noAnswer: 'geen',
    error: 'Probleem',
    sent: 'Wat verstuurd is',
    body: 'Ontvangen antwoord',
    redeliver: 'Opnieuw sturen',
    redeliverLabel: (event) => `Opnieuw sturen: ${event}`,
    noDeliveries: 'Nog geen bericht.',
    previous: 'Nieuwer',
    next: 'Ouder',
  },
};

const fr: WebhookWords = {
  list: {
    heading: 'Webhooks',
    intro:
      'Quand quelque chose se passe (une action est terminée, un contact change), le service envoie aussitôt un message signé à l’adresse de votre logiciel, et réessaie pendant trois jours s’il ne répond pas.',
    caption: 'Webhooks',
    address: 'Adresse',
    events: 'Événements',
    allEvents: 'Tous les événements',
    description: 'Description',
    status: 'État',
    failingSince: 'en échec depuis',
    disabledAfterFailures: 'désactivé par le service après trois jours sans message livré',
    none: 'Aucun webhook pour l’instant.',
    add: 'Ajouter un webhook',
    addressHint: 'L’adresse https de votre logiciel qui reçoit les messages.',
    eventsLegend: 'Envoyer',
    eventsHint: 'Chaque événement, ou seulement ceux que vous cochez.',
    everyEvent: 'Chaque événement, y compris ceux ajoutés plus tard',
    addButton: 'Ajouter le webhook',
    eventNames: {
      'sessionrequest.created': 'Une action est créée',
      'sessionrequest.sent': 'L’invitation d’une action est envoyée',
      'sessionrequest.opened': 'Un contact ouvre une action',
      'sessionrequest.completed': 'Une action est terminée',
      'sessionrequest.reopened': 'Une action est rouverte',
      'sessionrequest.deactivated': 'Une action est retirée',
      'sessionrequest.expired': 'Une action expire',
      'sessionrequest.declined': 'Une action est refusée',
      'sessionrequest.deleted': 'Une action est supprimée',
      'session.submitted': 'Un contact envoie ses réponses',
      'session.deleted': 'Des réponses sont supprimées',
      'signature.signed': 'Un signataire signe',
      'signature.declined': 'Un signataire refuse',
      'customer.created': 'Un contact est ajouté',
      'customer.updated': 'Un contact est modifié',
      'customer.deleted': 'Un contact est supprimé',
      'file.created': 'Un document est ajouté',
      'file.deleted': 'Un document est supprimé',
    },
    noAddress: 'Adresse : indiquez l’adresse qui reçoit les messages.',
    noEvents: 'Envoyer : cochez au moins un événement.',
    addressRefused: (why) => `Adresse : refusée (${why}).`,
    notices: {
      created: 'Le webhook est ajouté.',
      saved: 'Le webhook est enregistré.',
      rotated:
        'Le webhook a un nouveau secret de signature. Le précédent signe encore à côté pendant 24 heures, puis plus.',
      enabled: 'Le webhook est réactivé.',
      disabled: 'Le webhook est désactivé : rien ne lui est envoyé ; les messages en attente sont annulés.',
      deleted: 'Le webhook est supprimé.',
      redelivered: 'Le message est renvoyé.',
    },
  },
  page: {
    back: '← Intégrations',
    secretOf: 'Le secret de signature de ce webhook',
    secrets: 'Secrets de signature',
    currentSince: 'actuel depuis',
    replacedUntil: 'remplacé, signe jusqu’au',
    created: 'Ajouté',
    test: 'Envoyer un message de test',
    rotate: 'Nouveau secret',
    confirmRotate:
      'Créer un nouveau secret ? L’actuel signe encore à côté pendant 24 heures, puis plus : donnez le nouveau à votre logiciel dans ce délai.',
    enable: 'Activer',
    disable: 'Désactiver',
    confirmDisable:
      'Désactiver ce webhook ? Rien ne lui est envoyé jusqu’à sa réactivation ; les messages en attente sont annulés (vous pourrez les renvoyer).',
    remove: 'Supprimer',
    confirmRemove: 'Supprimer ce webhook avec sa liste de messages ? C’est irréversible.',
    testDelivered: (status, ms) =>
      `Le message de test est livré : votre logiciel a répondu ${status} en ${ms} ms.`,
    testFailed: (reason) => `Le message de test n’est pas livré : ${reason}.`,
    answer: 'Sa réponse',
    change: 'Modifier le webhook',
    save: 'Enregistrer',
    deliveries: (n) => `Messages envoyés (${n})`,
    deliveriesCaption: 'Messages envoyés à ce webhook, les plus récents d’abord',
    statusFilter: 'État',
    anyStatus: 'Tout état',
    show: 'Afficher',
    deliveryStatus: { pending: 'en attente', succeeded: 'livré', failed: 'en échec', cancelled: 'annulé' },
    event: 'Événement',
    queued: 'Mis en file',
    attempts: 'Tentatives',
    lastAttempt: 'Dernière tentative',
    nextAttempt: 'Prochaine tentative',
    answered: 'Réponse',
    noAnswer: 'aucune',
    error: 'Problème',
    sent: 'Ce qui a été envoyé',
    body: 'Réponse reçue',
    redeliver: 'Renvoyer',
    redeliverLabel: (event) => `Renvoyer : ${event}`,
    noDeliveries: 'Aucun message pour l’instant.',
    previous: 'Plus récents',
    next: 'Plus anciens',
  },
};

export const webhookWords: Record<Language, WebhookWords> = { en, nl, fr };
