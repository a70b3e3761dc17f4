import type { InboundMessage } from '#shared/whatsapp-protocol';
import type { Ticket } from '#shared/schemas/tickets';
import type { Message } from '#shared/schemas/messages';
import { parseServiceAccount } from '#shared/schemas/integrations';
import { PROMPT_TRANSFER_PHRASE } from '#shared/schemas/prompts';
import { getItem, putItem, query } from '../db';
import { ttlIn } from '../keys';
import { log } from '../log';
import { assertTenantKey, getObject } from '../storage';
import { conversationPk } from '../messages/repo';
import { sendMessage } from '../messages/send';
import { saveTranscript } from '../messages/edits';
import { updateTicket } from '../tickets/service';
import { getContact } from '../contacts/repo';
import { createSystemNote } from '../notes/service';
import { promptForRun } from '../prompts/service';
import { openAiCompatible, type ChatMessage } from '../prompts/chat-model';
import { AiBudgetSpent, assertAiBudget, meteredChat, tellAdminsAiBudgetSpent } from '../prompts/spend';
import { answerFromKnowledge, type AgentAnswer, type AgentPrompt } from '../knowledge/agent';
import { handOffNote, recordUnanswered, summarizeForPeople } from '../knowledge/hand-off';
import { ProviderError, withProviderBudget } from './call';
import { postWebhook } from './webhook';
import { continueTypebotChat, startTypebotChat, type TypebotTurn } from './typebot';
import { detectIntent } from './dialogflow';
import { integrationForRun } from './service';
import type { AssistantTarget } from '../inbound/pipeline';
import { assistKeys, type AssistState } from './repo';

const STATE_TTL_SECONDS = 90 * 24 * 3600;

export async function getAssistState(companyId: number, ticketId: number): Promise<AssistState | undefined> {
  const item = await getItem(assistKeys(companyId, ticketId), { consistent: true });
  return item ? { human: Boolean(item.human), ...(item.typebot ? { typebot: item.typebot } : {}) } : undefined;
}

async function saveAssistState(companyId: number, ticketId: number, state: AssistState) {
  await putItem({ ...assistKeys(companyId, ticketId), ...state, ttl: ttlIn(STATE_TTL_SECONDS) });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Lower case without accents or extra spaces: how keywords and the transfer phrase are compared. */
export const normalize = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

const ACCENTS: Record<string, string> = { a: 'aáàâã', e: 'eéê', i: 'ií', o: 'oóôõ', u: 'uú', c: 'cç' };
/** The transfer phrase as a pattern that ignores case, accents, spacing and quotes around it. */
const TRANSFER_PATTERN = new RegExp(
  `["'“”*]*${[...normalize(PROMPT_TRANSFER_PHRASE)]
    .map((ch) => (ch === ' ' ? '\\s+' : ACCENTS[ch] ? `[${ACCENTS[ch]}]` : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('')}["'“”*.!]*`,
  'giu',
);

/** The model's answer without the transfer phrase, and whether it said it. */
export function splitTransfer(answer: string): { text: string; transfer: boolean } {
  const text = answer.replace(TRANSFER_PATTERN, '');
  return { text: text.replace(/[ \t]+\n/g, '\n').trim(), transfer: text !== answer };
}

/** The ticket's prompt or integration was deleted since the ticket took it on. */
class AssistantDeleted extends Error {}

/**
 * Hands the customer's message to the ticket's prompt or integration and sends its answers through
 * the normal send path (automatic). Any failure (timeout after retries, provider error, an audio the
 * provider cannot transcribe, a deleted prompt) leaves the ticket pending for people with a note
 * saying why: never silent.
 */
export async function runAssistant(
  companyId: number,
  ticket: Ticket,
  target: AssistantTarget,
  message: InboundMessage,
) {
  try {
    await withProviderBudget(() =>
      target.kind === 'prompt'
        ? answerWithPrompt(companyId, ticket, target.id, message)
        : answerWithIntegration(companyId, ticket, target.id, message),
    );
  } catch (err) {
    if (err instanceof AiBudgetSpent) {
      await aiBudgetSpentHandOff(companyId, ticket, target, err);
      return;
    }
    const reason = (err as Error).message;
    log.error('assistant failed', { ticketId: ticket.id, kind: target.kind, id: target.id, error: reason });
    const what = target.kind === 'prompt' ? `o prompt de IA #${target.id}` : `a integração #${target.id}`;
    await handToPeople(
      companyId,
      ticket,
      undefined,
      err instanceof AssistantDeleted
        ? `Atendimento automático encerrado: ${what} foi excluído(a). Ticket aguardando um atendente.`
        : `Atendimento automático interrompido: ${what} falhou (${reason}). Ticket aguardando um atendente.`,
    );
  }
}

/**
 * The company's monthly AI cap is reached (checked before an answer starts, never between its calls):
 * the prompt stops, the ticket goes to people with a note, and the admins are told once a month.
 */
async function aiBudgetSpentHandOff(companyId: number, ticket: Ticket, target: AssistantTarget, err: AiBudgetSpent) {
  const budget = err.budget;
  log.warn('ai budget spent', { companyId, ticketId: ticket.id, limit: budget?.limit, source: budget?.source });
  const prompt = target.kind === 'prompt' ? await promptForRun(companyId, target.id) : undefined;
  await handToPeople(
    companyId,
    ticket,
    prompt?.queueId,
    `Atendimento automático pausado: o limite mensal de IA da empresa (${budget?.limit ?? '?'} chamadas) foi atingido. Ticket aguardando um atendente.`,
  );
  if (budget) await tellAdminsAiBudgetSpent(companyId, budget);
}

/** The bot steps back: the ticket stays pending (in `queueId` when given) for people; later messages skip the bot. */
async function handToPeople(companyId: number, ticket: Ticket, queueId: number | undefined, note?: string) {
  await saveAssistState(companyId, ticket.id, { human: true });
  await updateTicket(
    companyId,
    ticket.id,
    { ...(queueId ? { queueId } : {}), useIntegration: false, promptId: null, integrationId: null },
    null,
  );
  if (note) await createSystemNote(companyId, ticket, note);
}

async function send(companyId: number, ticket: Ticket, bodies: string[], delayMs = 0) {
  for (const [i, body] of bodies.entries()) {
    if (i > 0 && delayMs > 0) await sleep(delayMs);
    await sendMessage(companyId, ticket, { body, automatic: true });
  }
}

/** The ticket's last `limit` messages, oldest first (the conversation partition, newest first, one Query). */
async function recentMessages(companyId: number, ticket: Ticket, limit: number): Promise<Message[]> {
  const { items } = await query<Message>({
    pk: conversationPk(companyId, ticket.contactId, ticket.whatsappId),
    sk: { beginsWith: 'M#' },
    forward: false,
    limit,
  });
  return items.filter((m) => m.ticketId === ticket.id && !m.isDeleted).reverse();
}

/** A voice note or an audio file from the customer. */
const isAudio = (message: InboundMessage) =>
  message.mediaType === 'audio' || Boolean(message.media?.mimetype.startsWith('audio/'));

/** What a stored message says to the model: an audio's transcript (its body is only a file name), else its body. */
const spoken = (m: Message) => m.transcript || (m.mediaType === 'audio' ? '' : m.body);

/**
 * The customer's audio as text through the provider's transcription endpoint, stored on the message
 * so attendants read it under the audio. An audio that could not be downloaded, or a provider without
 * transcription, fails like any other AI call.
 */
async function transcribe(companyId: number, ticket: Ticket, apiKey: string, message: InboundMessage) {
  if (!message.media) throw new ProviderError('the audio could not be downloaded', false);
  assertTenantKey(companyId, message.media.key);
  const transcript = await openAiCompatible().transcribe({
    apiKey,
    audio: {
      data: await getObject(message.media.key),
      mimetype: message.media.mimetype,
      fileName: message.media.fileName || `${message.wid}.ogg`,
    },
  });
  await saveTranscript(companyId, ticket, message.wid, transcript);
  return transcript;
}

/**
 * A prompt answers the customer's message: from the conversation and its own text, or, with
 * `useKnowledgeBase`, through the knowledge agent. The company's AI budget is checked before anything
 * is asked of the provider (the agent checks it itself; an audio's transcription comes first).
 */
async function answerWithPrompt(companyId: number, ticket: Ticket, promptId: number, message: InboundMessage) {
  const prompt = await promptForRun(companyId, promptId);
  if (!prompt) throw new AssistantDeleted();
  if (!prompt.useKnowledgeBase || isAudio(message)) await assertAiBudget(companyId);
  const current = ticket.promptId === promptId ? ticket : await updateTicket(companyId, ticket.id, { promptId }, null);
  const transcript = isAudio(message) ? await transcribe(companyId, current, prompt.apiKey, message) : undefined;
  const contact = await getContact(companyId, ticket.contactId);
  const recent = await recentMessages(companyId, ticket, prompt.maxMessages);
  const history = recent
    .map(
      (m): ChatMessage => ({
        role: m.fromMe ? 'assistant' : 'user',
        content: (m.wid === message.wid && transcript) || spoken(m),
      }),
    )
    .filter((m) => m.content.trim());
  if (prompt.useKnowledgeBase) {
    const question = transcript || message.body;
    // the conversation before this message (the agent adds the question itself)
    const before = recent
      .filter((m) => m.wid !== message.wid)
      .map((m): ChatMessage => ({ role: m.fromMe ? 'assistant' : 'user', content: spoken(m) }))
      .filter((m) => m.content.trim());
    await answerWithKnowledge(companyId, current, prompt, question, before, contact?.name ?? '');
    return;
  }
  const system = [
    prompt.prompt,
    `O cliente se chama ${contact?.name || 'Cliente'}.`,
    `Se o cliente pedir um atendente humano ou você não souber responder, responda apenas: ${PROMPT_TRANSFER_PHRASE}`,
  ].join('\n\n');
  const answer = await meteredChat(companyId, 'agent', {
    apiKey: prompt.apiKey,
    model: prompt.model,
    maxTokens: prompt.maxTokens,
    temperature: prompt.temperature,
    messages: [{ role: 'system', content: system }, ...history],
  });
  const { text, transfer } = splitTransfer(answer);
  if (text) await send(companyId, current, [text]);
  if (transfer) await handToPeople(companyId, current, prompt.queueId);
}

type RunnablePrompt = NonNullable<Awaited<ReturnType<typeof promptForRun>>>;

/** What a customer reads under an answer drawn from the knowledge base, in the article's language. */
const SOURCE_LABEL = { pt: 'Fonte', en: 'Source', es: 'Fuente' } as const;

/**
 * A `useKnowledgeBase` prompt: the agent's answer is sent naming its articles (the customer reads
 * their titles at the end, attendants see them on the bubble: `knowledgeArticles`). A hand-off puts
 * the ticket in the prompt's queue for people, as any transfer does (assignment, SLA and push follow
 * from the queue change), with a note holding the AI's summary (a plain note when that call fails),
 * and records the question among the unanswered ones.
 */
async function answerWithKnowledge(
  companyId: number,
  ticket: Ticket,
  prompt: RunnablePrompt,
  question: string,
  history: ChatMessage[],
  customerName: string,
) {
  const result = await answerFromKnowledge({ companyId, prompt, history, question, customerName });
  if (!result.handOff && result.answer) {
    const articles = result.articleIds.map((id) => ({
      id,
      title: result.passages.find((p) => p.articleId === id)!.title,
    }));
    const language = result.passages.find((p) => p.articleId === articles[0]?.id)?.language ?? 'pt';
    const source = `${SOURCE_LABEL[language] ?? SOURCE_LABEL.pt}: ${articles.map((a) => a.title).join('; ')}`;
    await sendMessage(companyId, ticket, {
      body: `${result.answer}\n\n_${source}_`,
      automatic: true,
      knowledgeArticles: articles,
    });
    return;
  }
  await knowledgeHandOff(companyId, ticket, prompt, question, history, result);
}

async function knowledgeHandOff(
  companyId: number,
  ticket: Ticket,
  prompt: AgentPrompt & { queueId: number },
  question: string,
  history: ChatMessage[],
  result: AgentAnswer,
) {
  const reason = result.reason ?? 'unsupported';
  log.info('knowledge agent handed off', { companyId, ticketId: ticket.id, reason });
  const conversation: ChatMessage[] = [...history, { role: 'user', content: question }];
  // a provider that just failed is not asked again for a summary
  const summary =
    reason === 'failed'
      ? undefined
      : await summarizeForPeople(companyId, prompt, conversation).catch((err) => {
          log.warn('hand-off summary failed', { ticketId: ticket.id, error: (err as Error).message });
          return undefined;
        });
  await recordUnanswered(companyId, ticket.id, question, reason);
  await handToPeople(
    companyId,
    ticket,
    prompt.queueId,
    handOffNote(reason, { summary, question, error: result.error }),
  );
}

async function answerWithIntegration(
  companyId: number,
  ticket: Ticket,
  integrationId: number,
  message: InboundMessage,
) {
  const integration = await integrationForRun(companyId, integrationId);
  if (!integration) throw new AssistantDeleted();
  const current =
    ticket.useIntegration && ticket.integrationId === integrationId
      ? ticket
      : await updateTicket(companyId, ticket.id, { useIntegration: true, integrationId }, null);
  const contact = await getContact(companyId, ticket.contactId);

  if (integration.type === 'n8n' || integration.type === 'webhook') {
    const answer = await postWebhook(integration.urlN8N, integration.webhookSecret, {
      event: 'message',
      company: { id: companyId },
      integration: { id: integration.id, type: integration.type, name: integration.name },
      ticket: {
        id: current.id,
        uuid: current.uuid,
        status: current.status,
        queueId: current.queueId,
        whatsappId: current.whatsappId,
        contactId: current.contactId,
      },
      contact: { id: ticket.contactId, name: contact?.name ?? '', number: contact?.number ?? '' },
      message: {
        wid: message.wid,
        body: message.body,
        mediaType: message.mediaType,
        fromMe: message.fromMe,
        timestamp: message.timestamp,
      },
    });
    await send(companyId, current, answer.replies);
    if (answer.transfer) await handToPeople(companyId, current, undefined);
    return;
  }

  if (integration.type === 'dialogflow') {
    const account = parseServiceAccount(integration.jsonContent);
    if (!account) throw new Error('dialogflow credentials missing');
    const projectId = integration.projectName || account.project_id || '';
    const out = await detectIntent(
      account,
      projectId,
      `${companyId}-${current.id}`,
      message.body,
      integration.language || 'pt-BR',
    );
    if (out.answer) await send(companyId, current, [out.answer]);
    if (out.endInteraction) await handToPeople(companyId, current, undefined);
    return;
  }

  await typebotTurn(companyId, current, integration, message, contact?.name ?? '', contact?.number ?? '');
}

type RunnableIntegration = NonNullable<Awaited<ReturnType<typeof integrationForRun>>>;

/**
 * Typebot: the finish keyword hands the ticket to people; the restart keyword drops the session and
 * sends the restart message; a session idle longer than `typebotExpires` minutes (0: never) starts
 * over; a numbered reply picks that choice; an answer Typebot did not take gets the unknown-answer
 * message; a flow that ends hands the ticket to people.
 */
async function typebotTurn(
  companyId: number,
  ticket: Ticket,
  integration: RunnableIntegration,
  message: InboundMessage,
  name: string,
  number: string,
) {
  const body = normalize(message.body);
  const state = (await getAssistState(companyId, ticket.id)) ?? { human: false };
  if (integration.typebotKeywordFinish && body === normalize(integration.typebotKeywordFinish)) {
    await handToPeople(companyId, ticket, undefined);
    return;
  }
  if (integration.typebotKeywordRestart && body === normalize(integration.typebotKeywordRestart)) {
    await saveAssistState(companyId, ticket.id, { human: false });
    if (integration.typebotRestartMessage) await send(companyId, ticket, [integration.typebotRestartMessage]);
    return;
  }
  const session = state.typebot;
  const expired =
    session && integration.typebotExpires > 0 && Date.now() - session.lastAt > integration.typebotExpires * 60_000;
  const start = () =>
    startTypebotChat(integration.urlN8N, integration.typebotSlug, {
      number,
      name,
      ticketId: String(ticket.id),
    });
  let turn: TypebotTurn | undefined;
  if (!session || expired) turn = await start();
  else {
    const choice = /^\d+$/.test(body) ? session.choices[Number(body) - 1] : undefined;
    turn = await continueTypebotChat(integration.urlN8N, session.sessionId, choice ?? message.body);
    turn ??= await start();
    if (!turn.bubbles && turn.expectsInput && integration.typebotUnknownMessage)
      turn = { ...turn, messages: [integration.typebotUnknownMessage], choices: session.choices };
  }
  await send(companyId, ticket, turn.messages, integration.typebotDelayMessage);
  if (!turn.expectsInput) {
    await handToPeople(companyId, ticket, undefined);
    return;
  }
  await saveAssistState(companyId, ticket.id, {
    human: false,
    typebot: { sessionId: turn.sessionId, lastAt: Date.now(), choices: turn.choices },
  });
}
