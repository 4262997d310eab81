// The signing module's public entry: what other modules may use.
export { signedCopyHandler, signedCopyJob } from './signed-copy.job';
export { buildSignedDocument } from './signed-document';
export {
  CODE_MINUTES,
  codeSealContext,
  signingCodeHandler,
  signingCodeJob,
  signingFinaliseHandler,
  signingFinaliseJob,
  signingTitle,
} from './signing.jobs';
