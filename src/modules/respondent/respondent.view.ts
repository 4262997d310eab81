import type { Language, Section } from '../questionlists';
import type { SessionRequestRow } from '../sessionrequests';
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
  organisation: string;
  parts: QuestionnairePart[];
  steps: Step[];
  languages: Language[];
  /** The respondent's answers so far: the action's draft, or the campaign visitor's own. */
  draft: Drafts;
  /** Submitted: the action completed, or (campaign) this visitor submitted. */
  done: boolean;
}

export type RespondentView = { outcome: 'unknown' } | { outcome: 'gone'; language: Language } | OpenAction;

/** A campaign link that this browser has not started yet: it must give a name and e-mail first. */
export const needsVisitor = (view: OpenAction): boolean =>
  view.action.type === 'campaign' && view.visitor === undefined;
