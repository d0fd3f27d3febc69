package io.sluice.cli;

/** What {@code ./sluice help} prints, and what a wrongly called command prints after its error. */
public final class Usage {
    public static final String TEXT = """
            usage: ./sluice <command> [options]

              dev [--reset]                       run everything locally (Kafka, ClickHouse, processor, gateway);
                                                  data in .sluice/ ($SLUICE_HOME); --reset wipes it first
              projects create --name NAME [--rate N --burst M] [--json]
                                                  create a project; prints its token and private key (shown once),
                                                  its numeric id and its DSN for Sentry SDKs (from SLUICE_PUBLIC_URL)
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
                                                  (projects commands take --bootstrap-server HOST:PORT)
              schema apply [--clickhouse-url URL] create or update Sluice's ClickHouse tables
              replay --from ISO_TIME [--to ISO_TIME] [--project TOKEN] [--what history|errors|aggregates|all] [--dry-run]
                                                  rebuild ClickHouse rows of that event-time range from Kafka;
                                                  idempotent: rows already there stay single, safe to run twice
              config                              print every setting with its default (markdown)
              send-test-event --token T --key K [--url http://127.0.0.1:8080]
                                                  send one error and one transaction, confirm both reach ClickHouse
              stats --project TOKEN [--since 1h] [--json] [--watch]
                                                  traffic per minute, status codes, top routes, errors, refusals,
                                                  last requests; --watch redraws every 5 s
              demo-data [--scale 1] [--json]      fill ClickHouse with synthetic traffic (a huge tenant, 1,000 small
                                                  projects, errors; aggregates computed from the history)
              bench [--seconds 10] [--profile]    measure gateway, Kafka and processor against ceilings measured
                                                  in the same run (needs wrk; installs it with apt-get as root);
                                                  --profile records JFR of gateway and processor in bench-results/;
                                                  --producer-experiments also tries other gateway producer settings;
                                                  --dashboards [--scales 1,2] only times every dashboard panel and
                                                  stats' queries on demo data (24 h, 30 days; median of 5)
              gateway                             run only the gateway (configured by SLUICE_* variables)
              processor                           run only the processor (configured by SLUICE_* variables)
              help [COMMAND]                      this text, or one command's options (as COMMAND --help)
              --version                           this build's version

            Configuration: SLUICE_* environment variables, see README.md.""";

    private Usage() {
    }
}
