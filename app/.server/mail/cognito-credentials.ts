import {
  CognitoIdentityClient,
  GetCredentialsForIdentityCommand,
  GetIdCommand,
} from "@aws-sdk/client-cognito-identity";
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from "@smithy/types";
import { MailDeliveryError } from "./transport.ts";

/** Renew this long before the credentials expire. */
const REFRESH_MARGIN_MS = 5 * 60_000;

/**
 * product-rules §7 "Credentials": Cognito identity-pool guest credentials (GetId, then
 * GetCredentialsForIdentity), obtained and refreshed here on the server (deviation 1),
 * never in the browser. The identity id is kept in memory for the life of the process.
 */
export function cognitoGuestCredentials(opts: {
  identityPoolId: string;
  /** Defaults to the pool's own region, the part of its id before ":". */
  region?: string;
  /** For local fakes of the Cognito Identity API. */
  endpoint?: string;
  /** MAIL_TIMEOUT_SECONDS (ms): connecting and each request (the SDK's default never gives up). */
  timeoutMs?: number;
  now?: () => number;
}): AwsCredentialIdentityProvider & { identityId(): string | undefined } {
  const region = opts.region ?? opts.identityPoolId.split(":")[0];
  const now = opts.now ?? Date.now;
  const client = new CognitoIdentityClient({
    region,
    endpoint: opts.endpoint,
    // Unsigned calls: guest access needs no AWS credentials of its own.
    credentials: { accessKeyId: "unused", secretAccessKey: "unused" },
    maxAttempts: 3,
    requestHandler: {
      connectionTimeout: opts.timeoutMs ?? 20_000,
      requestTimeout: opts.timeoutMs ?? 20_000,
      throwOnRequestTimeout: true,
      socketTimeout: opts.timeoutMs ?? 20_000,
    },
  });
  let identityId: string | undefined;
  let cached: AwsCredentialIdentity | undefined;
  let inflight: Promise<AwsCredentialIdentity> | undefined;

  async function fetchCredentials(): Promise<AwsCredentialIdentity> {
    if (!identityId) {
      const id = await client.send(new GetIdCommand({ IdentityPoolId: opts.identityPoolId }));
      if (!id.IdentityId) throw new Error("Cognito GetId returned no IdentityId");
      identityId = id.IdentityId;
    }
    const result = await client.send(new GetCredentialsForIdentityCommand({ IdentityId: identityId }));
    const c = result.Credentials;
    // product-rules §8: "Credential is missing"
    if (!c?.AccessKeyId || !c.SecretKey) throw new Error("Credential is missing");
    return {
      accessKeyId: c.AccessKeyId,
      secretAccessKey: c.SecretKey,
      sessionToken: c.SessionToken,
      expiration: c.Expiration,
    };
  }

  const provider = async () => {
    if (cached && (!cached.expiration || cached.expiration.getTime() - REFRESH_MARGIN_MS > now())) return cached;
    inflight ??= fetchCredentials()
      .then((c) => (cached = c))
      .catch((error: unknown) => {
        // The identity may have been removed from the pool: start again with GetId next time.
        if ((error as { name?: string }).name === "ResourceNotFoundException") identityId = undefined;
        throw new MailDeliveryError(`Cognito guest credentials unavailable: ${(error as Error).message}`, {
          permanent: false,
          cause: error,
        });
      })
      .finally(() => (inflight = undefined));
    return inflight;
  };
  return Object.assign(provider, { identityId: () => identityId });
}
