import { assertEquals } from "../tests/_assert.ts";
import { promptHistoryId, promptHistoryShortLengths } from "./prompt_history.ts";

Deno.test("a prompt-history id's short reference keeps the stem and 8 characters of its part", () => {
  const id = promptHistoryId("0123456789abcdef0123456789abcdef");
  const [first] = promptHistoryShortLengths(id)!;
  assertEquals(id.slice(0, first), "prompt-history-01234567");
  assertEquals(promptHistoryShortLengths(id)!.at(-1), id.length);
});

Deno.test("a prompt-history id without a part, or with a short one, is referred to whole", () => {
  assertEquals(promptHistoryShortLengths("prompt-history"), [14]);
  assertEquals(promptHistoryShortLengths("prompt-history-ab"), [17]);
  assertEquals(promptHistoryShortLengths("5fbf3543-0000-4000-8000-000000000000"), undefined);
});
