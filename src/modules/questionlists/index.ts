// The questionlists module's public entry: what other modules may use.
export { seedTemplates } from './demo-templates';
export { questionListRoutes } from './questionlists.router';
export { sharedLanguages } from './questionlists.rules';
export { Language, type Question, type Section } from './questionlists.schemas';
export { listQuestionLists, templateVersions } from './questionlists.service';
