// The usage text every rl-chatops program prints for --help and after a usage error.
export const USAGE = `Usage:
  rl-chatops [--console]                        run the bot (the terminal console when no platform token is set)
  rl-chatops exec "<command>" [--channel ID] [--user ID] [--json] [--timeout SECONDS] [--request-id ID]
                                                run one /rl command by the bot that owns the data folder (with none,
                                                a background supervisor is started for it); give up when the owner
                                                does not take it within SECONDS, default 30; a command that changes
                                                something runs once per request ID (default: a new one)
  rl-chatops mcp [--channel ID] [--user ID] [--http [--host H] [--port N] [--tokens FILE]] [--timeout SECONDS]
                                                serve the /rl tools to your coding agent over MCP (stdio, or Streamable
                                                HTTP with bearer tokens), as a client of the owner like exec
  rl-chatops mcp --new-token NAME [--tokens FILE]
                                                make a bearer token for NAME (printed once; its hash kept in FILE,
                                                default data/mcp-tokens)
  rl-chatops stop [--timeout SECONDS]           stop the bot or background supervisor that owns the data folder, in order
  rl-chatops notices [--follow]                 print the notices kept for console channels (--follow: and new ones)
  rl-chatops supervise                          the background supervisor itself (exec starts it; no chat platform)
  rl-chatops scan DIR [--json]                  show the environments discovery finds in DIR
  rl-chatops stack check FILE [--entry NAME]    validate a stack manifest and show what a run of it would start
  rl-chatops backup [FILE]                      a consistent copy of the database (default: data/backups/), safe while the bot runs
  rl-chatops prune --older-than 90d [--dry-run] [--archive DIR]
                                                delete (or move into DIR) the logs, run configs and run folders of runs
                                                that ended before then; the runs stay, noted as pruned (default age:
                                                RL_PRUNE_AFTER_DAYS); --dry-run lists them and changes nothing`;
