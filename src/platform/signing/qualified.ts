import type { Language } from '../../i18n/languages';

/**
 * A qualified trust service (QTSP: itsme, the Belgian eID through a signing service, and the like). It
 * identifies the signer itself and makes a qualified electronic signature (QES) with a qualified
 * certificate in the signer's own name, which the service's seal cannot give (docs/signing.md).
 *
 * The flow a provider plugs into: the signer's page sends their browser to `start`'s address; the
 * provider identifies them and signs the digest of the prepared PDF (its byte ranges, as for our own
 * signatures); the browser comes back to `returnUrl`, and `finish` answers the detached CMS signature
 * (ETSI.CAdES.detached) that goes into the placeholder, with the signer's certificate.
 *
 * No provider is built in: none is reachable from here to be tried against. An action asking for
 * `signatureLevel: "qualified"` is refused with 400 until one is configured (QUALIFIED_SIGNING_PROVIDER).
 */
export interface QualifiedSigningProvider {
  /** The name QUALIFIED_SIGNING_PROVIDER selects it by. */
  readonly name: string;
  start(input: {
    /** Ours, to find the signing again when the browser returns. */
    reference: string;
    /** SHA-256 (hex) of the byte ranges to sign. */
    digest: string;
    documentName: string;
    signer: { name: string; email: string | null; phone: string | null; language: Language };
    returnUrl: string;
  }): Promise<{ providerReference: string; redirectUrl: string }>;
  finish(input: {
    providerReference: string;
    /** The query the provider sent the browser back with. */
    callback: Record<string, string>;
  }): Promise<{ cms: Buffer; certificatePem: string }>;
}

export interface QualifiedSigningConfig {
  provider: string;
  url: string;
  clientId: string;
  clientSecret: string;
}

/** Providers by name; a deployment that has one registers it here before the service starts. */
const providers = new Map<string, (config: QualifiedSigningConfig) => QualifiedSigningProvider>();

export function registerQualifiedProvider(
  name: string,
  make: (config: QualifiedSigningConfig) => QualifiedSigningProvider,
): void {
  providers.set(name, make);
}

export class QualifiedProviderError extends Error {
  override name = 'QualifiedProviderError';
}

/** The configured provider, or null when none is configured; an unknown name is refused at start. */
export function qualifiedProvider(config: QualifiedSigningConfig | null): QualifiedSigningProvider | null {
  if (!config) return null;
  const make = providers.get(config.provider);
  if (!make)
    throw new QualifiedProviderError(
      `QUALIFIED_SIGNING_PROVIDER: no provider named "${config.provider}" is available (${
        providers.size === 0 ? 'none is built in' : `known: ${[...providers.keys()].join(', ')}`
      }); see docs/signing.md#qualified-signatures`,
    );
  return make(config);
}
