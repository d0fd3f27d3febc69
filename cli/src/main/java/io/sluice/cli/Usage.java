package io.sluice.cli;

/** What {@code ./sluice help} and {@code ./sluice --help} print: the server's commands, and a launcher's own. */
public final class Usage {
    public static final String TEXT = """
            usage: ./sluice <command> [options]

              projects create --name NAME [--rate N --burst M] [--json | --export]
                                                  create a project; prints its token and private key (shown once),
                                                  its numeric id and its DSN for Sentry SDKs (from SLUICE_PUBLIC_URL);
                                                  --export: one line, export TOKEN=... KEY=... (eval "$(...)")
              projects list [--json]              every project (no secrets): id, state, quota, DSN
              projects show TOKEN [--json]        one project: id, keys (ids, expiry), DSN keys, quota, state
              projects rotate-key TOKEN [--grace 24h] [--json]
                                                  a new key; the old ones keep working for the grace period
              projects revoke-key TOKEN KEY_ID    remove a key at once
              projects rotate-dsn-key TOKEN [--grace 24h] [--json]
                                                  a new DSN key; the old DSNs keep working for the grace period
              projects revoke-dsn-key TOKEN KEY_ID
                                                  remove a DSN key at once
              projects set-dsn-origins TOKEN KEY_ID --origins https://a.example,https://b.example
                                                  browser origins allowed to use that DSN key ("" for any)
              projects disable TOKEN | enable TOKEN
              projects set-quota TOKEN --rate N [--burst M] [--endpoint transaction|project]
              projects set-scrubbing TOKEN [--on|--off] [--sensitive-fields NAME,NAME]
                                                  scrub secrets from its events before Kafka (--on, the default)
                                                  or store them as sent (--off); field names on top of the defaults
              projects set-filters TOKEN [--on NAME,NAME] [--off NAME,NAME] [--error-messages GLOB,GLOB] [--releases GLOB,GLOB]
                                                  drop its health checks, localhost, browser extensions' errors, web
                                                  crawlers, legacy browsers before quota (all but localhost on by
                                                  default), and errors or releases the patterns match
              projects set-retention TOKEN --days N [--json] [--by WHO] [--clickhouse-url URL]
                                                  keep its rows N days in every table (at most
                                                  SLUICE_CLICKHOUSE_RETENTION_DAYS)
              projects delete-user TOKEN --user ID [--json] [--by WHO] [--clickhouse-url URL]
                                                  remove that user's history and error rows for good; no replay
                                                  brings them back (aggregates keep their counts)
              projects delete TOKEN [--json] [--by WHO] [--clickhouse-url URL]
                                                  refuse its keys at once, remove its rows from every table, retire
                                                  its token; no replay brings them back
              projects routes add|remove --token TOKEN --pattern /shops/*/orders/*
              projects routes list --token TOKEN [--json]
                                                  the project's route patterns (* one segment, ** the rest),
                                                  tried in order before the built-in normalization
                                                  (projects commands take --bootstrap-server HOST:PORT)
              schema apply [--clickhouse-url URL] create or update Sluice's ClickHouse tables
              replay --from ISO_TIME [--to ISO_TIME] [--project TOKEN] [--what history|errors|aggregates|all] [--dry-run]
                                                  rebuild ClickHouse rows of that event-time range from Kafka;
                                                  idempotent: rows already there stay single, safe to run twice
              doctor [--gateway URL]... [--processor URL]... [--timeout 5s] [--json]
                                                  check Kafka, topics, registry, ClickHouse and schema, lag, dead
                                                  letters, readiness: a line each, exit 1 if any fails, with what to do
                                                  (--bootstrap-server HOST:PORT, --clickhouse-url URL)
              dead-letters list [--since 24h] [--until TIME] [--json]
                                                  dead letters per reason and project
              dead-letters show PARTITION@OFFSET [--max-chars 4096]
                                                  one dead letter in full (control characters escaped)
              dead-letters replay [--reason TEXT] [--project TOKEN] [--since 24h] [--dry-run]
                                                  send them back where they came from after a fix; idempotent
                                                  (dead-letters commands take --bootstrap-server HOST:PORT)
              config                              print every setting with its default (markdown)
              send-test-event --token T --key K [--url http://127.0.0.1:8080] [--clickhouse-url URL]
                                                  send one error and one transaction, confirm both reach ClickHouse
              stats --project TOKEN [--since 1h] [--json] [--watch] [--clickhouse-url URL]
                                                  traffic per minute, status codes, top routes, errors, refusals,
                                                  last requests; --watch redraws every 5 s
              demo-data [--scale 1] [--json] [--clickhouse-url URL]
                                                  fill ClickHouse with synthetic traffic (a huge tenant, 1,000 small
                                                  projects, errors; aggregates computed from the history)
              gateway                             run only the gateway (configured by SLUICE_* variables)
              processor                           run only the processor (configured by SLUICE_* variables)
              completion                          print a bash completion script: source <(./sluice completion)
              help [COMMAND]                      this text (as --help), or one command's options (as COMMAND --help)
              --version                           this build's version

            Configuration: SLUICE_* environment variables, see docs/configuration.md.""";

    private static final String HEAD = "usage: ./sluice <command> [options]\n\n";

    /** The server's usage with a launcher's lines ({@link Extension#usage}) first. */
    public static String with(Extension extension) {
        return HEAD + extension.usage() + TEXT.substring(HEAD.length());
    }

    private Usage() {
    }
}
