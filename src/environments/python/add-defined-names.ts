// The names a parsed file binds that another file could derive a class from: its classes, its aliases (`Base = x.Y`),
// what it imports from the folder's own modules, and what it imports under a name already bound (BaseEnv as
// AtroposBase). A file that mentions none of these, of any parsed file, cannot hold an environment. Other imports from
// outside the folder (typing, pydantic, the rest of atroposlib) are left out, so that files merely using the same
// libraries are not drawn in; "outside" is decided conservatively: the module's last part names no file or folder of
// the scanned folder (where the resolver would look), or it is atroposlib's. Returns whether `names` grew.
import type { FileSummary } from "./python-file-summary.ts";

export function addDefinedNames(
  summary: FileSummary,
  isFolderModule: (part: string) => boolean,
  names: Set<string>,
): boolean {
  const before = names.size;
  // As the resolver looks modules up: relative ones in the folder; absolute ones by their last part (a file or
  // package of that name), never atroposlib's own.
  const fromFolder = (module: string): boolean => {
    if (module.startsWith(".")) return true;
    const parts = module.split(".");
    return parts[0] !== "atroposlib" && isFolderModule(parts.at(-1) ?? "");
  };
  for (const cls of summary.classes) names.add(cls.name);
  for (const { name, binding } of summary.bindings) {
    switch (binding.kind) {
      case "class":
        names.add(name);
        break;
      case "value":
        // A literal, or a value not known statically (a call), is never a class to derive from.
        if (binding.value.kind !== "literal" && binding.value.kind !== "unknown") names.add(name);
        break;
      case "import-from":
        if (fromFolder(binding.module) || names.has(binding.name)) names.add(name);
        break;
      case "import-module":
        if (fromFolder(binding.module)) names.add(name);
        break;
      default:
        // A kind of binding this does not know yet: it may be anything, so it counts.
        names.add(name);
    }
  }
  return names.size > before;
}
