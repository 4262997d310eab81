import type { OrganisationBrand } from '../organisations';
import type { Language, Section } from '../questionlists';
import type { SessionRequestRow, SignerRow } from '../sessionrequests';
import type { SessionRow } from '../sessions';
import type { Drafts } from './answers';
import type { VisitorRow } from './campaign.repository';

/** One template of an action, in the version the action was sent with. */
export interface QuestionnairePart {
  listId: string;
  name: string;
  hasReportSpec: boolean;
  supportedLanguages: Language[];
  sections: Section[];
}

/** One page of the respondent's questionnaire: a section of one template. */
export interface Step {
  index: number;
  part: QuestionnairePart;
  section: Section;
}

/** An open action as the contact's pages show it, with the answers of the one answering it. */
export interface OpenAction {
  outcome: 'ok';
  action: SessionRequestRow;
  /** A campaign's visitor, once this browser has given a name and e-mail; never set for other actions. */
  visitor?: VisitorRow;
  /** The organisation by the name its contacts see (its brand name, else its name). */
  organisation: string;
  /** The organisation's face to its contacts: colour, logo, and whether declining needs a code. */
  brand: OrganisationBrand;
  parts: QuestionnairePart[];
  steps: Step[];
  languages: Language[];
  /** The respondent's answers so far: the action's draft, or the campaign visitor's own. */
  draft: Drafts;
  /** Submitted: the action completed, or (campaign) this visitor submitted. */
  done: boolean;
  /** Signing actions: every signer in order, and the one whose link this is. */
  signers: SignerRow[];
  signer?: SignerRow;
  /** The action's own session (questionnaire and multisigning), once submitted. */
  session?: SessionRow;
}

export type RespondentView =
  | { outcome: 'unknown' }
  | { outcome: 'gone'; language: Language; declined?: boolean }
  | OpenAction;

/** A campaign link that this browser has not started yet: it must give a name and e-mail first. */
export const needsVisitor = (view: OpenAction): boolean =>
  view.action.type === 'campaign' && view.visitor === undefined;

export type Channel = 'email' | 'sms';

/** Where a signer stands, as their page shows it. */
export type SigningStage =
  | 'questionnaire' // multisigning: the answers come first
  | 'waiting' // sequential order: an earlier signer has not signed yet
  | 'code' // ask for a one-time code
  | 'verify' // type the code that was sent
  | 'locked' // too many wrong codes: ask for a new one
  | 'expired' // the code expired: ask for a new one
  | 'sign' // the browser confirmed the code: draw or type, consent, sign
  | 'signed'; // done: the document is sealed when every signer has signed

export type { SigningProblem } from '../../i18n/signing';
