import { ProviderError, callProvider, postJson } from './call';

/** One answer of Typebot's chat API: the bubbles to send, and the choices an input offers. */
export interface TypebotTurn {
  sessionId: string;
  messages: string[];
  choices: string[];
  expectsInput: boolean;
  /** how many bubbles Typebot sent (0 while it waits for a valid answer) */
  bubbles: number;
}

interface RichNode {
  text?: string;
  bold?: boolean;
  italic?: boolean;
  type?: string;
  children?: RichNode[];
}

interface ChatAnswer {
  sessionId?: string;
  messages?: { type?: string; content?: Record<string, unknown> }[];
  input?: { type?: string; items?: { content?: string }[] };
}

/** Typebot's rich text (Slate nodes) as WhatsApp text: paragraphs on lines, *bold*, _italic_. */
function richText(nodes: RichNode[]): string {
  const inline = (n: RichNode): string => {
    if (n.text !== undefined) {
      if (!n.text.trim()) return n.text;
      if (n.bold) return `*${n.text}*`;
      if (n.italic) return `_${n.text}_`;
      return n.text;
    }
    return (n.children ?? []).map(inline).join('');
  };
  return nodes.map(inline).join('\n');
}

function bubbleText(message: NonNullable<ChatAnswer['messages']>[number]): string | undefined {
  const content = message.content ?? {};
  if (message.type === 'text') {
    if (typeof content.markdown === 'string') return content.markdown;
    if (Array.isArray(content.richText)) return richText(content.richText as RichNode[]);
    if (typeof content.plainText === 'string') return content.plainText;
    if (typeof content.text === 'string') return content.text;
    return undefined;
  }
  // media bubbles travel as their link
  return typeof content.url === 'string' ? content.url : undefined;
}

function turnOf(answer: ChatAnswer, sessionId: string): TypebotTurn {
  const choices = (answer.input?.items ?? []).map((i) => i.content ?? '').filter(Boolean);
  const messages = (answer.messages ?? []).map(bubbleText).filter((t): t is string => Boolean(t?.trim()));
  const bubbles = messages.length;
  if (choices.length) messages.push(choices.map((c, i) => `${i + 1} - ${c}`).join('\n'));
  return { sessionId: answer.sessionId ?? sessionId, messages, choices, expectsInput: Boolean(answer.input), bubbles };
}

const base = (url: string) => url.replace(/\/+$/, '');

/** Typebot chat API adapter: `POST {url}/api/v1/typebots/{slug}/startChat`. */
export async function startTypebotChat(url: string, slug: string, variables: Record<string, string>) {
  const answer = (await callProvider('typebot', (signal) =>
    postJson(
      `${base(url)}/api/v1/typebots/${encodeURIComponent(slug)}/startChat`,
      { isStreamEnabled: false, textBubbleContentFormat: 'richText', prefilledVariables: variables },
      signal,
    ),
  )) as ChatAnswer;
  if (!answer?.sessionId) throw new ProviderError('typebot answered without a session', false);
  return turnOf(answer, answer.sessionId);
}

/** `POST {url}/api/v1/sessions/{sessionId}/continueChat`; undefined when Typebot no longer knows the session. */
export async function continueTypebotChat(url: string, sessionId: string, text: string) {
  try {
    const answer = (await callProvider('typebot', (signal) =>
      postJson(
        `${base(url)}/api/v1/sessions/${encodeURIComponent(sessionId)}/continueChat`,
        { message: { type: 'text', text }, textBubbleContentFormat: 'richText' },
        signal,
      ),
    )) as ChatAnswer;
    return turnOf(answer ?? {}, sessionId);
  } catch (err) {
    if (err instanceof ProviderError && err.status === 404) return undefined;
    throw err;
  }
}
