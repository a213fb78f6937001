// The schema, as numbered migrations: each is applied once, in order, and recorded in user_version.
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "channels, configs, runs, audit",
    sql: `
      CREATE TABLE channels (
        platform TEXT NOT NULL,
        workspace TEXT NOT NULL,
        channel TEXT NOT NULL,
        environment TEXT,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (platform, workspace, channel)
      );
      CREATE TABLE channel_configs (
        platform TEXT NOT NULL,
        workspace TEXT NOT NULL,
        channel TEXT NOT NULL,
        environment TEXT NOT NULL,
        values_json TEXT NOT NULL DEFAULT '{}',
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (platform, workspace, channel, environment)
      );
      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        platform TEXT NOT NULL,
        workspace TEXT NOT NULL,
        channel TEXT NOT NULL,
        thread TEXT,
        environment TEXT NOT NULL,
        config_json TEXT NOT NULL,
        status TEXT NOT NULL,
        error TEXT,
        created_by TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        started_at INTEGER,
        ended_at INTEGER,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX runs_by_channel ON runs (platform, workspace, channel, created_at);
      CREATE INDEX runs_by_status ON runs (status);
      CREATE TABLE audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        platform TEXT NOT NULL,
        workspace TEXT NOT NULL,
        channel TEXT NOT NULL,
        user_id TEXT NOT NULL,
        command TEXT NOT NULL,
        args_json TEXT NOT NULL,
        outcome TEXT NOT NULL,
        detail TEXT
      );
      CREATE INDEX audit_by_time ON audit (at);
    `,
  },
  {
    version: 2,
    name: "run processes, run details, rate limits",
    sql: `
      ALTER TABLE runs ADD COLUMN backend TEXT NOT NULL DEFAULT 'local';
      ALTER TABLE runs ADD COLUMN config_path TEXT;
      ALTER TABLE runs ADD COLUMN wandb_project TEXT;
      ALTER TABLE runs ADD COLUMN wandb_group TEXT;
      ALTER TABLE runs ADD COLUMN wandb_run_name TEXT;
      ALTER TABLE runs ADD COLUMN total_steps INTEGER;
      ALTER TABLE runs ADD COLUMN failed_component TEXT;
      ALTER TABLE runs ADD COLUMN stopped_by TEXT;
      ALTER TABLE runs ADD COLUMN job_id TEXT;
      CREATE TABLE run_processes (
        run_id TEXT NOT NULL REFERENCES runs (id),
        component TEXT NOT NULL,
        pid INTEGER,
        start_time TEXT,
        log_path TEXT NOT NULL,
        state TEXT NOT NULL,
        exit_code INTEGER,
        signal TEXT,
        started_at INTEGER,
        ended_at INTEGER,
        PRIMARY KEY (run_id, component)
      );
      CREATE TABLE rate_limits (
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (scope, key)
      );
    `,
  },
  {
    version: 3,
    name: "outbox, digest state, conversations, inference tests",
    sql: `
      CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        dedupe_key TEXT NOT NULL UNIQUE,
        platform TEXT NOT NULL,
        workspace TEXT NOT NULL,
        channel TEXT NOT NULL,
        thread TEXT,
        kind TEXT NOT NULL,
        run_id TEXT,
        reply_json TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending',
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        last_error TEXT,
        created_at INTEGER NOT NULL,
        sent_at INTEGER,
        message_id TEXT
      );
      CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
      CREATE TABLE digest_state (
        run_id TEXT PRIMARY KEY REFERENCES runs (id),
        muted INTEGER NOT NULL DEFAULT 0,
        last_digest_at INTEGER,
        last_reward REAL,
        last_percent_correct REAL,
        best_reward REAL,
        last_step INTEGER,
        last_step_at INTEGER,
        stall_alerted INTEGER NOT NULL DEFAULT 0,
        regression_alerted INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE conversations (
        platform TEXT NOT NULL,
        workspace TEXT NOT NULL,
        channel TEXT NOT NULL,
        thread TEXT NOT NULL DEFAULT '',
        seq INTEGER NOT NULL,
        message_json TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (platform, workspace, channel, thread, seq)
      );
      CREATE TABLE inference_tests (
        id TEXT PRIMARY KEY,
        platform TEXT NOT NULL,
        workspace TEXT NOT NULL,
        channel TEXT NOT NULL,
        environment TEXT NOT NULL,
        created_by TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        finished_at INTEGER,
        status TEXT NOT NULL,
        result_json TEXT
      );
    `,
  },
  {
    version: 4,
    name: "process actions a run's transition owes",
    sql: `
      CREATE TABLE run_actions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id TEXT NOT NULL REFERENCES runs (id),
        action TEXT NOT NULL,
        component TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        done_at INTEGER
      );
      CREATE INDEX run_actions_pending ON run_actions (done_at, run_id, id);
    `,
  },
  {
    version: 5,
    name: "confirmations",
    sql: `
      CREATE TABLE confirmations (
        id TEXT PRIMARY KEY,
        platform TEXT NOT NULL,
        workspace TEXT NOT NULL,
        channel TEXT NOT NULL,
        asker_id TEXT NOT NULL,
        asker_name TEXT,
        command TEXT NOT NULL,
        command_text TEXT NOT NULL,
        args_json TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'confirmed', 'cancelled')),
        answered_by TEXT,
        answered_by_name TEXT,
        answered_at INTEGER
      );
      CREATE INDEX confirmations_by_expiry ON confirmations (expires_at);
    `,
  },
  {
    version: 6,
    name: "reply pages",
    sql: `
      CREATE TABLE reply_pages (
        id TEXT PRIMARY KEY,
        platform TEXT NOT NULL,
        workspace TEXT NOT NULL,
        channel TEXT NOT NULL,
        pages_json TEXT NOT NULL,
        footer TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX reply_pages_by_age ON reply_pages (created_at);
    `,
  },
  {
    version: 7,
    name: "sweeps",
    sql: `
      CREATE TABLE sweeps (
        id TEXT PRIMARY KEY,
        platform TEXT NOT NULL,
        workspace TEXT NOT NULL,
        channel TEXT NOT NULL,
        thread TEXT,
        environment TEXT NOT NULL,
        grid_json TEXT NOT NULL,
        created_by TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        compared_at INTEGER
      );
      CREATE INDEX sweeps_by_channel ON sweeps (platform, workspace, channel, created_at);
      ALTER TABLE runs ADD COLUMN sweep_id TEXT REFERENCES sweeps (id);
      CREATE INDEX runs_by_sweep ON runs (sweep_id);
    `,
  },
  {
    version: 8,
    name: "why an outbox message will never be delivered",
    sql: `
      ALTER TABLE outbox ADD COLUMN undeliverable TEXT;
    `,
  },
  {
    version: 9,
    name: "the training stack each run belongs to",
    sql: `
      ALTER TABLE runs ADD COLUMN stack TEXT NOT NULL DEFAULT 'atropos-tinker';
    `,
  },
  {
    version: 10,
    name: "how many checkpoints a run had saved at its last digest",
    sql: `
      ALTER TABLE digest_state ADD COLUMN last_checkpoint_count INTEGER;
    `,
  },
  {
    version: 11,
    name: "resumed and forked runs",
    sql: `
      ALTER TABLE runs ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE runs ADD COLUMN resumed_by TEXT;
      ALTER TABLE runs ADD COLUMN resumed_step INTEGER;
      ALTER TABLE runs ADD COLUMN parent_id TEXT;
      ALTER TABLE runs ADD COLUMN fork_step INTEGER;
    `,
  },
  {
    version: 12,
    name: "how many requeues of a run's Slurm job the bot has followed",
    sql: `
      ALTER TABLE runs ADD COLUMN job_requeues INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 13,
    name: "approval requests for starts that need a second person",
    sql: `
      CREATE TABLE approvals (
        id TEXT PRIMARY KEY,
        platform TEXT NOT NULL,
        workspace TEXT NOT NULL,
        channel TEXT NOT NULL,
        thread TEXT,
        asker_id TEXT NOT NULL,
        asker_name TEXT,
        asker_roles_json TEXT NOT NULL,
        command TEXT NOT NULL,
        command_text TEXT NOT NULL,
        args_json TEXT NOT NULL,
        reason TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'denied')),
        answered_by TEXT,
        answered_by_name TEXT,
        answered_at INTEGER
      );
    `,
  },
  {
    version: 14,
    name: "spending limits per channel and per person",
    sql: `
      CREATE TABLE budgets (
        platform TEXT NOT NULL,
        workspace TEXT NOT NULL,
        channel TEXT NOT NULL,
        user_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        period TEXT NOT NULL,
        amount REAL NOT NULL,
        set_by TEXT NOT NULL,
        set_at INTEGER NOT NULL,
        PRIMARY KEY (platform, workspace, channel, user_id, kind, period)
      );
      CREATE INDEX runs_by_creator ON runs (platform, workspace, created_by, created_at);
    `,
  },
  {
    version: 15,
    name: "how long a resumed run's earlier attempts trained",
    sql: `
      ALTER TABLE runs ADD COLUMN trained_ms INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 16,
    name: "where each kind of notice goes, per channel and per person",
    sql: `
      CREATE TABLE notify_settings (
        platform TEXT NOT NULL,
        workspace TEXT NOT NULL,
        channel TEXT NOT NULL,
        user_id TEXT NOT NULL,
        settings_json TEXT NOT NULL,
        set_by TEXT NOT NULL,
        set_at INTEGER NOT NULL,
        PRIMARY KEY (platform, workspace, channel, user_id)
      );
      ALTER TABLE outbox ADD COLUMN route TEXT;
    `,
  },
  {
    version: 17,
    name: "a channel's digests show a sample of each run's latest step",
    sql: `
      ALTER TABLE channels ADD COLUMN digest_samples INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 18,
    name: "a sweep's living message, and the edits owed to posted messages",
    sql: `
      ALTER TABLE sweeps ADD COLUMN message_id TEXT;
      ALTER TABLE sweeps ADD COLUMN message_thread TEXT;
      CREATE TABLE message_edits (
        key TEXT PRIMARY KEY,
        platform TEXT NOT NULL,
        workspace TEXT NOT NULL,
        channel TEXT NOT NULL,
        thread TEXT,
        message_id TEXT NOT NULL,
        reply_json TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 1,
        sent_version INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL DEFAULT 'pending',
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        last_sent_at INTEGER,
        last_error TEXT
      );
      CREATE INDEX message_edits_due ON message_edits (status, next_attempt_at);
    `,
  },
  {
    version: 19,
    name: "approval requests' messages, edited once decided or expired, through the outbox",
    sql: `
      ALTER TABLE approvals ADD COLUMN message_id TEXT;
      ALTER TABLE approvals ADD COLUMN message_thread TEXT;
      ALTER TABLE approvals ADD COLUMN edit_queued INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX approvals_unedited ON approvals (expires_at) WHERE edit_queued = 0;
      ALTER TABLE outbox ADD COLUMN edit_message_id TEXT;
    `,
  },
  {
    version: 20,
    name: "a channel's posts of a kind by time (the digests' hourly cap counts them on every pass)",
    sql: `
      CREATE INDEX outbox_by_channel_kind ON outbox (platform, workspace, channel, kind, created_at);
    `,
  },
  {
    version: 21,
    name: "requests answered once: a client's request id, taken before the command runs, with the answer it got",
    sql: `
      CREATE TABLE requests (
        id TEXT PRIMARY KEY,
        platform TEXT NOT NULL,
        workspace TEXT NOT NULL,
        channel TEXT NOT NULL,
        user_id TEXT NOT NULL,
        command_text TEXT NOT NULL,
        owner_pid INTEGER NOT NULL,
        state TEXT NOT NULL DEFAULT 'running',
        ok INTEGER,
        reply_json TEXT,
        created_at INTEGER NOT NULL,
        answered_at INTEGER
      );
      CREATE INDEX requests_by_age ON requests (created_at);
      ALTER TABLE runs ADD COLUMN request_id TEXT;
      CREATE INDEX runs_by_request ON runs (request_id) WHERE request_id IS NOT NULL;
    `,
  },
  {
    version: 22,
    name: "the surface a command and a run came through (a person's own agent, through rl-chatops mcp)",
    sql: `
      ALTER TABLE audit ADD COLUMN via TEXT;
      ALTER TABLE runs ADD COLUMN created_via TEXT;
    `,
  },
  {
    version: 23,
    name: "a year of runs read through indexes: every channel's runs newest first, and a run found by the start of its id",
    sql: `
      CREATE INDEX runs_by_time ON runs (created_at);
      CREATE INDEX runs_by_id_nocase ON runs (id COLLATE NOCASE);
    `,
  },
  {
    version: 24,
    name: "the training watchdog's memory of each run: the signals in an open episode, the step times it measured",
    sql: `
      CREATE TABLE watchdog_state (
        run_id TEXT PRIMARY KEY,
        state_json TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 25,
    name: "old runs' files pruned or archived: the run stays, with when its files went and where an archive put them",
    sql: `
      ALTER TABLE runs ADD COLUMN files_pruned_at INTEGER;
      ALTER TABLE runs ADD COLUMN files_archived_to TEXT;
      CREATE INDEX runs_with_files_by_time ON runs (created_at) WHERE files_pruned_at IS NULL;
    `,
  },
];
