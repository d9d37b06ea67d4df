// Runs exactly one tool call, then exits. Started by tpmjs_executor.runner, possibly ahead of time.
//
//   node harness.mjs --control-fd N --result-fd M
//
// Control pipe (service -> harness): one JSON line with the call, then optionally the line
// "abort" (the service's timeout fired). Result pipe (harness -> service): the line
// {"ready":true} as soon as the harness is loaded, then one result line, after a newline and
// the request's `nonce` (so a line the tool writes into the pipe itself is never taken for it):
//   <nonce> {"ok":true,"output":<json>,"logs":[...]}  or  <nonce> {"ok":false,"code":"...","message":"...","logs":[...]}
// Tools print freely: stdout and stderr are captured into `logs`, never mixed with the result.
// The tool runs in this realm and may replace globals: what sends the result is captured
// before it loads, and the service trusts nothing in the line but its shape.
import fs from 'node:fs';
import net from 'node:net';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';

const { writeSync } = fs;
const stringify = JSON.stringify;
const bufferFrom = Buffer.from;
const toBuffer = (text) => Reflect.apply(bufferFrom, Buffer, [text]);

const argValue = (flag) => Number(process.argv[process.argv.indexOf(flag) + 1]);

// Reopen the pipes through /proc: the copies are close-on-exec, so a child process the tool
// starts cannot hold the result pipe open (or write into it) after we are gone.
function reopen(fd, flags) {
  try {
    const copy = fs.openSync(`/proc/self/fd/${fd}`, flags);
    fs.closeSync(fd);
    return copy;
  } catch {
    return fd;
  }
}

const resultFd = reopen(argValue('--result-fd'), 'w');
const controlFd = reopen(argValue('--control-fd'), 'r');
const realExit = process.exit.bind(process);

let logBytes = 0;
let maxLogBytes = 65536;
let logsTruncated = false;
const logs = [];

function capture(chunk, encoding) {
  let text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8');
  if (logsTruncated) return;
  if (logBytes + text.length > maxLogBytes) {
    text = text.slice(0, Math.max(0, maxLogBytes - logBytes));
    logsTruncated = true;
  }
  logBytes += text.length;
  for (const line of text.split('\n')) {
    if (line !== '') logs.push(line);
  }
  if (logsTruncated) logs.push('[logs truncated]');
}

for (const stream of [process.stdout, process.stderr]) {
  stream.write = (chunk, encoding, callback) => {
    capture(chunk, encoding);
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') process.nextTick(done);
    return true;
  };
}

let sent = false;
let nonce = null;

function write(line) {
  const buffer = toBuffer(line);
  let offset = 0;
  while (offset < buffer.length) {
    offset += writeSync(resultFd, buffer, offset, buffer.length - offset);
  }
}

// `outputJson` is already JSON text; the frame is built around it, not parsed again.
function send(message, outputJson) {
  if (nonce === null) return; // no request yet: nothing to answer
  let logsJson;
  try {
    logsJson = stringify(logs);
  } catch {
    logsJson = '["[logs could not be encoded]"]';
  }
  const body = outputJson === undefined
    ? stringify({ ok: false, code: message.code, message: message.message })
    : `{"ok":true,"output":${outputJson}}`;
  write(`\n${nonce} ${body.slice(0, -1)},"logs":${logsJson}}\n`);
}

function finish(message, outputJson) {
  if (sent) return;
  sent = true;
  send(message, outputJson);
  realExit(0);
}

function fail(code, message) {
  finish({ ok: false, code, message });
}

// Whatever was thrown (an Error whose `message` getter throws, a revoked Proxy...), a string.
function errorMessage(err) {
  try {
    if (typeof err === 'string') return err;
    if (err instanceof Error) {
      const text = err.message || err.name;
      return typeof text === 'string' ? text : inspect(text);
    }
    return inspect(err);
  } catch {
    try {
      return `unprintable ${typeof err} thrown`;
    } catch {
      return 'unprintable value thrown';
    }
  }
}

let exitCalledWith = null;
process.exit = (code) => {
  const value = code ?? process.exitCode ?? 0;
  exitCalledWith = typeof value === 'number' || typeof value === 'string' ? value : typeof value;
  realExit(code);
};
process.on('exit', () => {
  if (sent) return;
  sent = true;
  const message = exitCalledWith !== null
    ? `Tool called process.exit(${exitCalledWith}) before returning a result`
    : 'Tool returned a promise that never settled (nothing was left to wait for)';
  send({ code: 'TOOL_EXECUTION_ERROR', message });
});
process.on('uncaughtException', (err) => fail('TOOL_EXECUTION_ERROR', `Uncaught exception: ${errorMessage(err)}`));
process.on('unhandledRejection', (err) => fail('TOOL_EXECUTION_ERROR', `Unhandled rejection: ${errorMessage(err)}`));

// JSON for anything a tool may return: undefined and functions vanish from objects and become
// null in arrays and at the top, BigInt becomes a decimal string, a reference back to an
// enclosing object becomes "[Circular]", toJSON() is honoured (Date -> ISO string),
// Map -> object, Set -> array, Error -> {name, message}, non-finite numbers -> null.
let maxDepth = 200;

class TooDeep extends Error {}

function jsonSafe(value, ancestors) {
  if (value === null) return null;
  switch (typeof value) {
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'string':
    case 'boolean':
      return value;
    default:
      break;
  }
  if (ancestors.includes(value)) return '[Circular]';
  if (ancestors.length >= maxDepth) throw new TooDeep();
  if (typeof value.toJSON === 'function') {
    let replaced;
    try {
      replaced = value.toJSON();
    } catch {
      replaced = undefined;
    }
    if (replaced !== value) {
      ancestors.push(value);
      try {
        return jsonSafe(replaced, ancestors);
      } finally {
        ancestors.pop();
      }
    }
  }
  ancestors.push(value);
  try {
    const item = (v) => {
      const safe = jsonSafe(v, ancestors);
      return safe === undefined ? null : safe;
    };
    if (Array.isArray(value) || value instanceof Set) return Array.from(value, item);
    if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return Array.from(value, item);
    if (value instanceof Map) {
      return Object.fromEntries(Array.from(value, ([k, v]) => [String(k), item(v)]));
    }
    const out = {};
    if (value instanceof Error) {
      out.name = value.name;
      out.message = value.message;
    }
    for (const key of Object.keys(value)) {
      let safe;
      try {
        safe = jsonSafe(value[key], ancestors);
      } catch {
        safe = undefined;
      }
      if (safe !== undefined) out[key] = safe;
    }
    return out;
  } finally {
    ancestors.pop();
  }
}

const isTool = (v) => v !== null && (typeof v === 'object' || typeof v === 'function') && typeof v.execute === 'function';
const isObject = (v) => v !== null && (typeof v === 'object' || typeof v === 'function');

function exportNames(ns) {
  const hidden = new Set(['default', 'module.exports', '__esModule']);
  const names = new Set(Object.keys(ns).filter((k) => !hidden.has(k)));
  const fallback = ns.default;
  if (isTool(fallback) || typeof fallback === 'function') {
    names.add('default');
  } else if (isObject(fallback)) {
    for (const key of Object.keys(fallback)) if (!hidden.has(key)) names.add(key);
  } else if (fallback !== undefined) {
    names.add('default');
  }
  const sorted = [...names].sort();
  return sorted.length > 50 ? [...sorted.slice(0, 50), `... (${sorted.length - 50} more)`] : sorted;
}

// Resolution order: pkg[name], then pkg.default[name], then pkg.default itself only when
// `name` is "default" (covered by the first step) or the default export is a function whose
// own name is `name`. A missing name never falls back to an unrelated default export.
function resolveExport(ns, name) {
  if (Object.hasOwn(ns, name)) return ns[name];
  if (isObject(ns.default) && Object.hasOwn(ns.default, name)) return ns.default[name];
  if (typeof ns.default === 'function' && ns.default.name === name) return ns.default;
  return undefined;
}

async function call(request) {
  const { loader, packageName, label, name, params, env, toolCallId, maxOutputBytes } = request;
  maxLogBytes = request.maxLogBytes ?? maxLogBytes;
  maxDepth = request.maxOutputDepth ?? maxDepth;
  for (const [key, value] of Object.entries(env ?? {})) process.env[key] = value;

  let ns;
  try {
    const load = (await import(pathToFileURL(loader).href)).default;
    ns = await load(packageName);
  } catch (err) {
    return fail('TOOL_EXECUTION_ERROR', `Package ${label} failed to load: ${errorMessage(err)}`);
  }

  let tool = resolveExport(ns, name);
  if (tool === undefined) {
    const names = exportNames(ns);
    const available = names.length ? `Available exports: ${names.join(', ')}` : 'It has no exports';
    return fail('TOOL_NOT_FOUND', `Tool "${name}" not found in package ${label}. ${available}`);
  }
  if (typeof tool === 'function' && !isTool(tool)) {
    if (/^class[\s{]/.test(Function.prototype.toString.call(tool))) {
      return fail('TOOL_INVALID', `Export "${name}" of ${label} is a class, not a tool`);
    }
    let made;
    try {
      made = await tool();
    } catch (err) {
      return fail('TOOL_EXECUTION_ERROR', `Tool factory "${name}" threw: ${errorMessage(err)}`);
    }
    if (!isTool(made)) {
      return fail('TOOL_INVALID', `Export "${name}" of ${label} is a function that returns no tool when called without arguments`);
    }
    tool = made;
  }
  if (!isTool(tool)) {
    const kind = tool === null ? 'null' : Array.isArray(tool) ? 'array' : typeof tool;
    return fail('TOOL_INVALID', `Export "${name}" of ${label} is not a tool: it has no execute() function (it is ${kind})`);
  }

  const controller = new AbortController();
  abortCurrent = (reason) => controller.abort(reason);
  let result;
  try {
    result = await tool.execute(params ?? {}, { toolCallId, messages: [], abortSignal: controller.signal });
  } catch (err) {
    return fail('TOOL_EXECUTION_ERROR', errorMessage(err));
  }
  let text;
  try {
    const safe = jsonSafe(result, []);
    text = stringify(safe === undefined ? null : safe);
  } catch (err) {
    if (err instanceof TooDeep) {
      return fail('TOOL_EXECUTION_ERROR', `Tool output is nested deeper than ${maxDepth} levels`);
    }
    return fail('TOOL_EXECUTION_ERROR', `Tool output could not be converted to JSON: ${errorMessage(err)}`);
  }
  const size = toBuffer(text).length;
  if (size > maxOutputBytes) {
    return fail('TOOL_EXECUTION_ERROR', `Tool output is ${size} bytes of JSON, over the ${maxOutputBytes}-byte limit`);
  }
  return finish({}, text);
}

let abortCurrent = null;
let pending = '';
let started = false;
const control = new net.Socket({ fd: controlFd, readable: true, writable: false });
control.setEncoding('utf8');
control.on('data', (data) => {
  pending += data;
  let newline;
  while ((newline = pending.indexOf('\n')) !== -1) {
    const line = pending.slice(0, newline);
    pending = pending.slice(newline + 1);
    if (!started) {
      started = true;
      // After the request, only an abort can arrive: the pipe must not keep the loop alive.
      control.unref();
      let request;
      try {
        request = JSON.parse(line);
        nonce = String(request.nonce);
      } catch {
        realExit(70); // the service sent something else than a request: no result to give
        return;
      }
      // Whatever escapes here was caused by the tool (it may have replaced any global).
      call(request).catch((err) => fail('TOOL_EXECUTION_ERROR', `Tool broke the harness: ${errorMessage(err)}`));
    } else if (line === 'abort' && abortCurrent) {
      abortCurrent(new DOMException('The execution timed out', 'TimeoutError'));
    }
  }
});
control.on('end', () => {
  if (!started) realExit(0);
});
control.on('error', () => {
  if (!started) realExit(0);
});

write('{"ready":true}\n');
