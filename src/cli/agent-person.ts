// Who a local agent acts as over stdio: the person exec --user names, else the operating-system user, as exec does
// today. The one place this rule lives, so the local identity rules can change for exec and mcp together.
/** The person's id on the console channels (console:NAME in RL_ADMINS, RL_OPERATORS, RL_APPROVERS). */
export function localAgentPerson(user: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return user ?? env.USER ?? "local";
}
