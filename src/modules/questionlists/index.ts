// The questionlists module's public entry: what other modules may use.
export { questionListRepository } from './questionlists.repository';
export { sharedLanguages } from './questionlists.rules';
export { Language, type Question, type Section } from './questionlists.schemas';
