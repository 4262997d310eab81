// What `npm run cli -- help` prints: every command, its options and what it does (docs/operations.md).
export const usage = `Usage: npm run cli -- <command> [options]

Commands:
  bootstrap --org <name> --email <admin e-mail> [--name <admin name>] [--json]
      Creates an organisation, an administrator, a default portfolio and an API key.
  seed --org <organisationId> [--contacts <N>]
      Adds the demo questionnaire templates the organisation does not have yet (nl, fr, en) and,
      with --contacts, N realistic demo contacts to its default portfolio.

  user set-password --org <organisationId> --email <staff e-mail>
      Sets a staff user's password, read from standard input (first line; never from an argument, so it
      stays out of shell history). The user's browser sessions end.
  user password-link --org <organisationId> --email <staff e-mail>
      Queues the e-mail with a single-use link for the user to choose their password (sent by the
      service's worker).

  oauth-client create --org <organisationId> --name <name> --scopes "read create" --grants <grants>
                      [--type confidential|public] [--redirect-uri <uri>]... [--service-user <userId>] [--json]
      Registers an OAuth client (partner application). Grants: client_credentials, authorization_code,
      refresh_token (space- or comma-separated). Prints the client id and the secret, shown only now;
      with --json exactly {"clientId":…,"clientSecret":…}.

  org password-sign-in --org <organisationId> --on|--off
      Switches password sign-in on or off for the organisation's staff (off needs an enabled sign-in
      provider). The break-glass way back when single sign-on fails for everyone: --on.
  org export --org <organisationId> --out <empty directory>
      Writes all the organisation's data: a JSON-lines file per table (no credentials or secrets), its
      files' bytes under files/, and manifest.json (rows per table, files, checked SHA-256s).
  org delete --org <organisationId> --confirm <organisation name>
      Deletes the organisation and everything it holds, files included. It cannot be undone: export
      first.

  export --out <empty directory>
      Writes the whole database (every organisation, credentials included, and the files' bytes) for
      moving to another database: stop the service first. As secret as the database.
  import --from <export directory> [--files-only]
      Loads an export into a new, empty database of the same schema version (refused otherwise), in one
      transaction, then writes the files to the configured file store. --files-only writes the files
      again (after a file store failed part-way). Carry ENCRYPTION_KEYS (or the key file) over too.

  usage [--month YYYY-MM] [--json]
      Prints what each live organisation did in the month (UTC; default this one): actions created,
      sent and completed, and signatures given. Test mode's work is never counted.

  prune [--json]
      Runs the retention sweep now (RETENTION_JOBS_DAYS, RETENTION_EVENTS_DAYS, RETENTION_AUDIT_DAYS;
      the service's workers run it every RETENTION_SWEEP_MINUTES) and prints what it removed.

The database is the one the service uses: DATABASE_URL, or the embedded one in DATA_DIR (which must not
be held by a running server).`;
