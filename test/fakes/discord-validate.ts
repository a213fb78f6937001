// Discord's documented payload limits, checked the way the real API refuses bodies (messages, commands, choices).

export const DISCORD_LIMITS = {
  content: 2000,
  embeds: 10,
  embedTitle: 256,
  embedDescription: 4096,
  embedFields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footerText: 2048,
  authorName: 256,
  embedTotal: 6000,
  actionRows: 5,
  buttonsPerRow: 5,
  buttonLabel: 80,
  customId: 100,
  choices: 25,
  choiceName: 100,
  choiceValue: 100,
  commandOptions: 25,
  commandDescription: 100,
} as const;

const NAME = /^[-_'\p{L}\p{N}]{1,32}$/u;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** Characters Discord counts towards the 6,000 across a message's embeds. */
export function embedChars(embed: Record<string, unknown>): number {
  const fields = Array.isArray(embed["fields"]) ? embed["fields"] : [];
  const footer = isRecord(embed["footer"]) ? str(embed["footer"]["text"]) : "";
  const author = isRecord(embed["author"]) ? str(embed["author"]["name"]) : "";
  return (
    str(embed["title"]).length +
    str(embed["description"]).length +
    footer.length +
    author.length +
    fields.reduce((n: number, f: unknown) => n + (isRecord(f) ? str(f["name"]).length + str(f["value"]).length : 0), 0)
  );
}

function checkEmbed(embed: unknown, at: string, problems: string[]): number {
  if (!isRecord(embed)) {
    problems.push(`${at}: not an object`);
    return 0;
  }
  const title = str(embed["title"]);
  const description = str(embed["description"]);
  if (title.length > DISCORD_LIMITS.embedTitle)
    problems.push(`${at}.title: ${title.length} > ${DISCORD_LIMITS.embedTitle}`);
  if (description.length > DISCORD_LIMITS.embedDescription)
    problems.push(`${at}.description: ${description.length} > ${DISCORD_LIMITS.embedDescription}`);
  if (embed["url"] !== undefined && !/^https?:\/\//.test(str(embed["url"])))
    problems.push(`${at}.url: not an http(s) URL`);
  const fields = embed["fields"] === undefined ? [] : embed["fields"];
  if (!Array.isArray(fields)) problems.push(`${at}.fields: not an array`);
  else {
    if (fields.length > DISCORD_LIMITS.embedFields)
      problems.push(`${at}.fields: ${fields.length} > ${DISCORD_LIMITS.embedFields}`);
    fields.forEach((f: unknown, i) => {
      const name = isRecord(f) ? str(f["name"]) : "";
      const value = isRecord(f) ? str(f["value"]) : "";
      if (name.length < 1 || name.length > DISCORD_LIMITS.fieldName)
        problems.push(`${at}.fields[${i}].name: length ${name.length}`);
      if (value.length < 1 || value.length > DISCORD_LIMITS.fieldValue)
        problems.push(`${at}.fields[${i}].value: length ${value.length}`);
    });
  }
  if (isRecord(embed["footer"]) && str(embed["footer"]["text"]).length > DISCORD_LIMITS.footerText)
    problems.push(`${at}.footer.text: too long`);
  if (isRecord(embed["author"]) && str(embed["author"]["name"]).length > DISCORD_LIMITS.authorName)
    problems.push(`${at}.author.name: too long`);
  const chars = embedChars(embed);
  if (chars === 0 && !isRecord(embed["image"])) problems.push(`${at}: empty embed`);
  return chars;
}

function checkComponents(components: unknown, problems: string[]): void {
  if (!Array.isArray(components)) {
    problems.push("components: not an array");
    return;
  }
  if (components.length > DISCORD_LIMITS.actionRows)
    problems.push(`components: ${components.length} rows > ${DISCORD_LIMITS.actionRows}`);
  const ids = new Set<string>();
  components.forEach((row: unknown, r) => {
    if (!isRecord(row) || row["type"] !== 1 || !Array.isArray(row["components"])) {
      problems.push(`components[${r}]: not an action row`);
      return;
    }
    const buttons = row["components"] as unknown[];
    if (buttons.length < 1 || buttons.length > DISCORD_LIMITS.buttonsPerRow)
      problems.push(`components[${r}]: ${buttons.length} buttons`);
    buttons.forEach((b: unknown, i) => {
      const at = `components[${r}].components[${i}]`;
      if (!isRecord(b) || b["type"] !== 2) return void problems.push(`${at}: not a button`);
      const label = str(b["label"]);
      if (label.length < 1 || label.length > DISCORD_LIMITS.buttonLabel)
        problems.push(`${at}.label: length ${label.length}`);
      if (b["style"] === 5) {
        if (!/^https?:\/\//.test(str(b["url"]))) problems.push(`${at}.url: not an http(s) URL`);
        return;
      }
      const id = str(b["custom_id"]);
      if (id.length < 1 || id.length > DISCORD_LIMITS.customId) problems.push(`${at}.custom_id: length ${id.length}`);
      if (ids.has(id)) problems.push(`${at}.custom_id: duplicate "${id}"`);
      ids.add(id);
      if (![1, 2, 3, 4].includes(b["style"] as number)) problems.push(`${at}.style: ${String(b["style"])}`);
    });
  });
}

/** Problems Discord would refuse a message body for (create or edit; `files` uploaded with it); [] when valid. */
export function validateMessageBody(
  body: unknown,
  { create = true, files = 0 }: { create?: boolean; files?: number } = {},
): string[] {
  const problems: string[] = [];
  if (!isRecord(body)) return ["body: not an object"];
  const content = str(body["content"]);
  if (content.length > DISCORD_LIMITS.content) problems.push(`content: ${content.length} > ${DISCORD_LIMITS.content}`);
  const embeds = body["embeds"] ?? [];
  let total = 0;
  if (!Array.isArray(embeds)) problems.push("embeds: not an array");
  else {
    if (embeds.length > DISCORD_LIMITS.embeds) problems.push(`embeds: ${embeds.length} > ${DISCORD_LIMITS.embeds}`);
    embeds.forEach((e: unknown, i) => (total += checkEmbed(e, `embeds[${i}]`, problems)));
  }
  if (total > DISCORD_LIMITS.embedTotal) problems.push(`embeds: ${total} characters > ${DISCORD_LIMITS.embedTotal}`);
  if (body["components"] !== undefined) checkComponents(body["components"], problems);
  // Discord's nonce: an integer or a string of up to 25 characters.
  const nonce = body["nonce"];
  if (
    nonce !== undefined &&
    !(typeof nonce === "number" && Number.isInteger(nonce)) &&
    !(typeof nonce === "string" && nonce.length <= 25)
  ) {
    problems.push(`nonce: must be an integer or a string of 25 or fewer characters`);
  }
  if (body["enforce_nonce"] !== undefined && typeof body["enforce_nonce"] !== "boolean")
    problems.push("enforce_nonce: not a boolean");
  const empty =
    content.length === 0 &&
    files === 0 &&
    (!Array.isArray(embeds) || embeds.length === 0) &&
    !(Array.isArray(body["components"]) && body["components"].length > 0);
  if (create && empty) problems.push("Cannot send an empty message");
  return problems;
}

/** Problems with an autocomplete result's choices. */
export function validateChoices(choices: unknown): string[] {
  if (!Array.isArray(choices)) return ["choices: not an array"];
  const problems: string[] = [];
  if (choices.length > DISCORD_LIMITS.choices) problems.push(`choices: ${choices.length} > ${DISCORD_LIMITS.choices}`);
  choices.forEach((c: unknown, i) => {
    const name = isRecord(c) ? str(c["name"]) : "";
    if (name.length < 1 || name.length > DISCORD_LIMITS.choiceName)
      problems.push(`choices[${i}].name: length ${name.length}`);
    const value = isRecord(c) ? c["value"] : undefined;
    if (typeof value === "string" ? value.length > DISCORD_LIMITS.choiceValue : typeof value !== "number")
      problems.push(`choices[${i}].value: invalid`);
  });
  return problems;
}

function checkOption(option: unknown, at: string, problems: string[]): void {
  if (!isRecord(option)) return void problems.push(`${at}: not an object`);
  const name = str(option["name"]);
  if (!NAME.test(name) || name !== name.toLowerCase()) problems.push(`${at}.name: invalid "${name}"`);
  const description = str(option["description"]);
  if (description.length < 1 || description.length > DISCORD_LIMITS.commandDescription)
    problems.push(`${at}.description: length ${description.length}`);
  if (option["choices"] !== undefined) {
    problems.push(...validateChoices(option["choices"]).map((p) => `${at}.${p}`));
    if (option["autocomplete"] === true) problems.push(`${at}: autocomplete cannot be used with choices`);
  }
  if (![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].includes(option["type"] as number))
    problems.push(`${at}.type: ${String(option["type"])}`);
  const children = option["options"];
  if (children !== undefined) checkOptionList(children, at, problems);
}

function checkOptionList(options: unknown, at: string, problems: string[]): void {
  if (!Array.isArray(options)) return void problems.push(`${at}.options: not an array`);
  if (options.length > DISCORD_LIMITS.commandOptions)
    problems.push(`${at}.options: ${options.length} > ${DISCORD_LIMITS.commandOptions}`);
  let seenOptional = false;
  const names = new Set<string>();
  options.forEach((o: unknown, i) => {
    const oat = `${at}.options[${i}]`;
    checkOption(o, oat, problems);
    if (!isRecord(o)) return;
    if (names.has(str(o["name"]))) problems.push(`${oat}.name: duplicate`);
    names.add(str(o["name"]));
    if (o["type"] === 1 || o["type"] === 2) return;
    if (o["required"] === true && seenOptional)
      problems.push(`${oat}: required options must be placed before non-required options`);
    if (o["required"] !== true) seenOptional = true;
  });
}

/** Problems with a list of application commands (bulk overwrite body). */
export function validateCommands(commands: unknown): string[] {
  if (!Array.isArray(commands)) return ["body: not an array"];
  const problems: string[] = [];
  commands.forEach((c: unknown, i) => {
    const at = `[${i}]`;
    if (!isRecord(c)) return void problems.push(`${at}: not an object`);
    const name = str(c["name"]);
    if (!NAME.test(name) || name !== name.toLowerCase()) problems.push(`${at}.name: invalid "${name}"`);
    const description = str(c["description"]);
    if (description.length < 1 || description.length > DISCORD_LIMITS.commandDescription)
      problems.push(`${at}.description: length ${description.length}`);
    if (c["options"] !== undefined) checkOptionList(c["options"], at, problems);
  });
  return problems;
}
