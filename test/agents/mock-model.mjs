#!/usr/bin/env node
// Mock model servers on 127.0.0.1 for the real-agent rig: the Anthropic Messages API (Claude
// Code) and the OpenAI Responses API (Codex), both streaming, on one port. What the model does is
// scripted by the user's last prompt, so a test drives a real agent by typing:
//
//   say <words>      a text answer: <words>
//   run <command>    a shell tool call running <command> (the agent asks for approval first);
//                    once the tool's result comes back, the answer "ran <command>"
//   slow [N]         an N s answer (20 by default) streamed a word every 100 ms (to interrupt)
//   fail             an API error (HTTP 400, invalid_request_error), which no agent retries
//   anything else    the answer "ok"
//
// Requests that carry no tools (Claude's title and topic requests, Codex's title thread) get a
// short plain answer and never a tool call, so only the conversation shown in the tab acts.
//
//   node mock-model.mjs [--port N] [--log FILE]
//
// Prints {"port": N} on stdout once listening. With --log, appends one JSON line per request:
// {n, at, api, path, main, prompt, toolResult, scenario}, and one {api: "ended"} when a streamed
// answer has been sent whole (closed: the client hung up first); prompts are test text.

import http from 'node:http';
import fs from 'node:fs';

const SLOW_SECONDS = 20;
const SLOW_WORD_MS = 100;

function argValue(name) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const logFile = argValue('--log');
let seq = 0;

function log(entry) {
  if (logFile) fs.appendFileSync(logFile, `${JSON.stringify({ n: ++seq, at: Date.now(), ...entry })}\n`);
}

/** The scenario a prompt asks for. */
export function scenarioOf(prompt) {
  const text = (prompt ?? '').trim();
  const m = /^(say|run)\s+([\s\S]+)$/.exec(text);
  if (m) return { kind: m[1], arg: m[2].trim() };
  const slow = /^slow(?:\s+(\d+))?$/.exec(text);
  if (slow) return { kind: 'slow', words: Math.round((Number(slow[1] ?? SLOW_SECONDS) * 1000) / SLOW_WORD_MS) };
  if (text === 'fail') return { kind: 'fail' };
  return { kind: 'say', arg: 'ok' };
}

// ---- helpers ----

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
      } catch {
        resolve({});
      }
    });
  });
}

function sse(res) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  let closed = false;
  res.on('close', () => (closed = true));
  return {
    send(event, data) {
      if (!closed) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      if (!closed) res.end();
    },
    get closed() {
      return closed;
    },
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function words(n) {
  return Array.from({ length: n }, (_, i) => `word${i + 1} `);
}

// ---- Anthropic Messages (Claude Code) ----

/** The user's own text blocks of a message: not Claude's reminders or interruption notes. */
function userTexts(content) {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content
    .filter((b) => b && b.type === 'text' && typeof b.text === 'string')
    // A denied tool's note heads the next prompt's text: "[Request interrupted by user ...]\n\n<prompt>".
    .map((b) => b.text.replace(/^\[Request interrupted[^\]]*\]\s*/, '').trim())
    .filter((t) => t && !t.startsWith('<system-reminder>'));
}

function anthropicTurn(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const last = messages[messages.length - 1];
  const lastTexts = last?.role === 'user' ? userTexts(last.content) : [];
  const content = Array.isArray(last?.content) ? last.content : [];
  // A tool's result continues the turn only when the message brings no new prompt (a denied
  // tool's result travels with the next prompt).
  const toolResult = lastTexts.length === 0 ? (content.find((b) => b && b.type === 'tool_result') ?? null) : null;
  // The prompt of this turn: the newest user text.
  let prompt = '';
  for (let i = messages.length - 1; i >= 0 && !prompt; i--) {
    if (messages[i].role !== 'user') continue;
    const texts = userTexts(messages[i].content);
    if (texts.length > 0) prompt = texts[texts.length - 1];
  }
  const tools = Array.isArray(body.tools) ? body.tools : [];
  return { prompt, toolResult, main: tools.some((t) => t && t.name === 'Bash') };
}

async function anthropicStream(res, body, reply) {
  const s = sse(res);
  const model = body.model ?? 'mock';
  s.send('message_start', {
    type: 'message_start',
    message: { id: `msg_${++seq}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } },
  });
  let index = 0;
  if (reply.text !== undefined || reply.chunks) {
    s.send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    for (const chunk of reply.chunks ?? [reply.text]) {
      if (s.closed) return;
      s.send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: chunk } });
      if (reply.chunks) await sleep(SLOW_WORD_MS);
    }
    s.send('content_block_stop', { type: 'content_block_stop', index });
    index++;
  }
  if (reply.bash) {
    s.send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_${++seq}`, name: 'Bash', input: {} } });
    s.send('content_block_delta', {
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify({ command: reply.bash, description: 'Run the command' }) },
    });
    s.send('content_block_stop', { type: 'content_block_stop', index });
  }
  s.send('message_delta', { type: 'message_delta', delta: { stop_reason: reply.bash ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } });
  s.send('message_stop', { type: 'message_stop' });
  s.end();
  log({ api: 'ended', scenario: reply.chunks ? 'slow' : reply.bash || reply.call ? 'run' : 'say', closed: s.closed });
}

async function handleAnthropic(req, res, body) {
  const turn = anthropicTurn(body);
  const sc = turn.main ? scenarioOf(turn.prompt) : { kind: 'side' };
  log({ api: 'anthropic', path: req.url, main: turn.main, prompt: turn.prompt.slice(0, 200), toolResult: turn.toolResult !== null, scenario: sc.kind });
  if (sc.kind === 'fail' && !turn.toolResult) {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'mock model: scripted failure' } }));
    return;
  }
  let reply;
  if (sc.kind === 'side') reply = { text: 'Mock title' };
  else if (turn.toolResult) reply = { text: `ran ${sc.arg ?? ''}`.trim() };
  else if (sc.kind === 'run') reply = { bash: sc.arg };
  else if (sc.kind === 'slow') reply = { chunks: words(sc.words) };
  else reply = { text: sc.arg };
  if (body.stream) return anthropicStream(res, body, reply);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: `msg_${++seq}`,
      type: 'message',
      role: 'assistant',
      model: body.model ?? 'mock',
      content: [{ type: 'text', text: reply.text ?? 'ok' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    }),
  );
}

// ---- OpenAI Responses (Codex) ----

function responsesTurn(body) {
  const input = Array.isArray(body.input) ? body.input : [];
  const last = input[input.length - 1];
  const toolResult = last && last.type === 'function_call_output' ? last : null;
  let prompt = '';
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i];
    if (item.role !== 'user' || !Array.isArray(item.content)) continue;
    const t = item.content
      .filter((c) => c && c.type === 'input_text' && typeof c.text === 'string')
      .map((c) => c.text)
      .join('\n')
      .trim();
    // Codex prepends context messages (environment, instructions) as user items in tags.
    if (t && !t.startsWith('<')) {
      prompt = t;
      break;
    }
  }
  const tools = Array.isArray(body.tools) ? body.tools : [];
  return { prompt, toolResult, tools, main: tools.length > 0 };
}

/** A function call for whichever shell tool this Codex offers, with that tool's argument shape. */
function shellCall(tools, command) {
  const names = new Set(tools.map((t) => t.name ?? t.type));
  if (names.has('shell_command')) return { name: 'shell_command', arguments: { command, timeout_ms: 10000 } };
  // Asking to run outside the sandbox is what makes Codex ask the user (approval_policy on-request).
  if (names.has('exec_command')) {
    return { name: 'exec_command', arguments: { cmd: command, sandbox_permissions: 'require_escalated', justification: 'Run the command?' } };
  }
  return { name: 'shell', arguments: { command: ['bash', '-lc', command], timeout_ms: 10000 } };
}

async function responsesStream(res, body, reply) {
  const s = sse(res);
  const id = `resp_${++seq}`;
  const base = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model: body.model ?? 'mock', status: 'in_progress', output: [] };
  s.send('response.created', { type: 'response.created', response: base });
  const output = [];
  let index = 0;
  if (reply.text !== undefined || reply.chunks) {
    const itemId = `msg_${++seq}`;
    s.send('response.output_item.added', { type: 'response.output_item.added', output_index: index, item: { type: 'message', id: itemId, role: 'assistant', status: 'in_progress', content: [] } });
    let text = '';
    for (const chunk of reply.chunks ?? [reply.text]) {
      if (s.closed) return;
      text += chunk;
      s.send('response.output_text.delta', { type: 'response.output_text.delta', item_id: itemId, output_index: index, content_index: 0, delta: chunk });
      if (reply.chunks) await sleep(SLOW_WORD_MS);
    }
    const item = { type: 'message', id: itemId, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
    s.send('response.output_item.done', { type: 'response.output_item.done', output_index: index, item });
    output.push(item);
    index++;
  }
  if (reply.call) {
    const item = { type: 'function_call', id: `fc_${++seq}`, call_id: `call_${seq}`, name: reply.call.name, arguments: JSON.stringify(reply.call.arguments), status: 'completed' };
    s.send('response.output_item.added', { type: 'response.output_item.added', output_index: index, item: { ...item, arguments: '' } });
    s.send('response.output_item.done', { type: 'response.output_item.done', output_index: index, item });
    output.push(item);
  }
  s.send('response.completed', {
    type: 'response.completed',
    response: { ...base, status: 'completed', output, usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 } },
  });
  s.end();
  log({ api: 'ended', scenario: reply.chunks ? 'slow' : reply.bash || reply.call ? 'run' : 'say', closed: s.closed });
}

async function handleResponses(req, res, body) {
  const turn = responsesTurn(body);
  const sc = turn.main ? scenarioOf(turn.prompt) : { kind: 'side' };
  log({ api: 'responses', path: req.url, main: turn.main, prompt: turn.prompt.slice(0, 200), toolResult: turn.toolResult !== null, scenario: sc.kind, tools: turn.tools.map((t) => t.name ?? t.type), output: turn.toolResult ? String(turn.toolResult.output).slice(0, 300) : undefined });
  if (sc.kind === 'fail' && !turn.toolResult) {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { type: 'invalid_request_error', code: 'invalid_request', message: 'mock model: scripted failure' } }));
    return;
  }
  let reply;
  // Codex's title thread asks for JSON of this shape (text.format json_schema).
  if (sc.kind === 'side') reply = { text: JSON.stringify({ title: 'Mock title' }) };
  else if (turn.toolResult) reply = { text: `ran ${sc.arg ?? ''}`.trim() };
  else if (sc.kind === 'run') reply = { call: shellCall(turn.tools, sc.arg) };
  else if (sc.kind === 'slow') reply = { chunks: words(sc.words) };
  else reply = { text: sc.arg };
  return responsesStream(res, body, reply);
}

// ---- server ----

const server = http.createServer(async (req, res) => {
  const url = req.url ?? '';
  if (req.method === 'GET' && /\/models/.test(url)) {
    log({ api: 'models', path: url });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data: [{ id: 'mock-model', object: 'model' }], models: [] }));
    return;
  }
  if (req.method !== 'POST') {
    log({ api: 'other', method: req.method, path: url });
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{}');
    return;
  }
  const body = await readBody(req);
  if (/\/messages\/count_tokens/.test(url)) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ input_tokens: 10 }));
    return;
  }
  if (/\/messages/.test(url)) return handleAnthropic(req, res, body);
  if (/\/responses/.test(url)) return handleResponses(req, res, body);
  log({ api: 'other', method: req.method, path: url });
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end('{}');
});

// Run as a program (a test imports scenarioOf only).
if (process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(new URL(import.meta.url).pathname)) {
  const port = Number(argValue('--port') ?? 0);
  server.listen(port, '127.0.0.1', () => {
    process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
  });
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, () => process.exit(0));
}
