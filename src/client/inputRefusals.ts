// What a holder's refusal of input (`inputRejected`'s reason) means to the person who typed it:
// one wording for every client, the terminal's notice line and the web page alike. `read-only`
// is not here: each client says in its own way which key or button takes control.

export const NOT_ACCEPTING_NOTICE = 'not accepting input';

export const INPUT_REFUSALS: ReadonlyMap<string, string> = new Map([
  ['queue-full', NOT_ACCEPTING_NOTICE],
  ['delivery-uncertain', 'delivery uncertain: the program ended before it read all of your input; nothing was sent again'],
  ['not-started', 'not delivered: the program did not start'],
  ['not-running', 'not delivered: the program is not running'],
]);
