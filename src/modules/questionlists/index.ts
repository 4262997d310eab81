// The questionlists module's public entry: what other modules may use.
export { seedTemplates } from './demo-templates';
export { questionListRepository } from './questionlists.repository';
export { questionListRoutes } from './questionlists.router';
export { sharedLanguages } from './questionlists.rules';
export { Language, type Question, type Section } from './questionlists.schemas';
export { listQuestionLists } from './questionlists.service';
