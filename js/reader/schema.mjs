// ---------------------------------------------------------------------------
// JSON Schema (draft 2020-12), the keywords the policy schemas use, with
// jsonschema's messages and its best_match choice among the errors
// ---------------------------------------------------------------------------

import { pyRepr } from "./repr.mjs";

export function isType(v, t) {
  switch (t) {
    case "object": return v !== null && typeof v === "object" && !Array.isArray(v);
    case "array": return Array.isArray(v);
    case "string": return typeof v === "string";
    case "boolean": return typeof v === "boolean";
    case "null": return v === null;
    case "number": return typeof v === "number";
    case "integer": return typeof v === "number" && Number.isInteger(v);
    default: return false;
  }
}

export function jsonEqual(a, b) {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isType(a, "object") && isType(b, "object")) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

const REGEXES = new Map();

function pyPatternTest(pattern, s) {
  let re = REGEXES.get(pattern);
  if (re === undefined) REGEXES.set(pattern, (re = new RegExp(pattern, "u")));
  if (re.test(s)) return true;
  // Python's `$` also matches before a final newline
  return pattern.endsWith("$") && s.endsWith("\n") && re.test(s.slice(0, -1));
}

function descend(root, schema, inst, path, key, out) {
  path.push(key);
  schemaErrors(root, schema, inst, path, out);
  path.pop();
}

function schemaErrors(root, schema, inst, path, out) {
  const err = (validator, message, ctx) => out.push({ path: [...path], validator, message, schema, inst, context: ctx || [] });
  for (const [kw, arg] of Object.entries(schema)) {
    switch (kw) {
      case "$ref": {
        const target = arg.replace(/^#\//, "").split("/").reduce((o, k) => o[k], root);
        schemaErrors(root, target, inst, path, out);
        break;
      }
      case "type": {
        const types = Array.isArray(arg) ? arg : [arg];
        if (!types.some((t) => isType(inst, t))) err(kw, `${pyRepr(inst)} is not of type ${types.map(pyRepr).join(", ")}`);
        break;
      }
      case "const":
        if (!jsonEqual(inst, arg)) err(kw, `${pyRepr(arg)} was expected`);
        break;
      case "enum":
        if (!arg.some((e) => jsonEqual(inst, e))) err(kw, `${pyRepr(inst)} is not one of ${pyRepr(arg)}`);
        break;
      case "required":
        if (isType(inst, "object")) for (const p of arg) if (!Object.hasOwn(inst, p)) err(kw, `${pyRepr(p)} is a required property`);
        break;
      case "properties":
        if (isType(inst, "object")) {
          for (const [p, sub] of Object.entries(arg)) if (Object.hasOwn(inst, p)) descend(root, sub, inst[p], path, p, out);
        }
        break;
      case "additionalProperties":
        if (isType(inst, "object")) {
          const known = schema.properties || {};
          const extras = Object.keys(inst).filter((p) => !Object.hasOwn(known, p));
          if (arg === false) {
            if (extras.length) {
              extras.sort();
              err(kw, `Additional properties are not allowed (${extras.map(pyRepr).join(", ")} ${extras.length === 1 ? "was" : "were"} unexpected)`);
            }
          } else if (isType(arg, "object")) {
            for (const p of extras) descend(root, arg, inst[p], path, p, out);
          }
        }
        break;
      case "propertyNames":
        if (isType(inst, "object")) for (const p of Object.keys(inst)) schemaErrors(root, arg, p, path, out);
        break;
      case "allOf":
        for (const sub of arg) schemaErrors(root, sub, inst, path, out);
        break;
      case "oneOf": {
        const all = [];
        let valid = 0;
        for (const sub of arg) {
          const errs = [];
          schemaErrors(root, sub, inst, path, errs);
          if (errs.length === 0) valid++;
          else all.push(...errs);
        }
        if (valid === 0) err(kw, `${pyRepr(inst)} is not valid under any of the given schemas`, all);
        else if (valid > 1) err(kw, `${pyRepr(inst)} is valid under more than one of the given schemas`);
        break;
      }
      case "prefixItems":
        if (Array.isArray(inst)) arg.forEach((sub, k) => k < inst.length && descend(root, sub, inst[k], path, k, out));
        break;
      case "items":
        if (Array.isArray(inst)) {
          const from = schema.prefixItems ? schema.prefixItems.length : 0;
          for (let k = from; k < inst.length; k++) descend(root, arg, inst[k], path, k, out);
        }
        break;
      case "minItems":
        if (Array.isArray(inst) && inst.length < arg) err(kw, `${pyRepr(inst)} ${arg === 1 ? "should be non-empty" : "is too short"}`);
        break;
      case "maxItems":
        if (Array.isArray(inst) && inst.length > arg) err(kw, `${pyRepr(inst)} ${arg === 0 ? "is expected to be empty" : "is too long"}`);
        break;
      case "uniqueItems":
        if (arg && Array.isArray(inst) && inst.some((x, k) => inst.slice(k + 1).some((y) => jsonEqual(x, y)))) {
          err(kw, `${pyRepr(inst)} has non-unique elements`);
        }
        break;
      case "pattern":
        if (typeof inst === "string" && !pyPatternTest(arg, inst)) err(kw, `${pyRepr(inst)} does not match ${pyRepr(arg)}`);
        break;
      case "minimum":
        if (isType(inst, "number") && inst < arg) err(kw, `${pyRepr(inst)} is less than the minimum of ${pyRepr(arg)}`);
        break;
      case "maximum":
        if (isType(inst, "number") && inst > arg) err(kw, `${pyRepr(inst)} is greater than the maximum of ${pyRepr(arg)}`);
        break;
      case "multipleOf":
        if (isType(inst, "number") && Number.isFinite(inst) && inst % arg !== 0) err(kw, `${pyRepr(inst)} is not a multiple of ${arg}`);
        break;
      default:
        break; // annotations: $schema, $id, $defs, title, description
    }
  }
}

function relevanceCmp(a, b) {
  // jsonschema.exceptions.relevance: shallower, later sibling path, not weak, type matches
  if (a.path.length !== b.path.length) return b.path.length - a.path.length;
  for (let k = 0; k < a.path.length; k++) {
    const x = a.path[k];
    const y = b.path[k];
    if (x !== y) return x < y ? -1 : 1;
  }
  const weak = (e) => (e.validator === "oneOf" || e.validator === "anyOf" ? 0 : 1);
  if (weak(a) !== weak(b)) return weak(a) - weak(b);
  const mt = (e) => {
    const t = e.schema.type;
    if (t === undefined) return 1;
    return (Array.isArray(t) ? t : [t]).some((x) => isType(e.inst, x)) ? 0 : 1;
  };
  return mt(a) - mt(b);
}

function bestMatch(errors) {
  let best = null;
  for (const e of errors) if (best === null || relevanceCmp(e, best) > 0) best = e;
  while (best && best.context.length) {
    const sorted = [...best.context].sort((a, b) => relevanceCmp(a, b));
    if (sorted.length >= 2 && relevanceCmp(sorted[0], sorted[1]) === 0) return best;
    best = sorted[0];
  }
  return best;
}

/** The first schema error as Python reports it: [where, message], or null. */
export function schemaError(schema, doc) {
  const errors = [];
  schemaErrors(schema, schema, doc, [], errors);
  const e = bestMatch(errors);
  if (!e) return null;
  let msg = e.message.split(/\s+/).filter(Boolean).join(" ");
  if (msg.length > 160) msg = msg.slice(0, 157) + "...";
  return [e.path.length ? e.path.join("/") : "(top level)", msg];
}
