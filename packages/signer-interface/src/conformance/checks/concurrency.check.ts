import type { ConformanceCheck } from '../conformance-check.ts';
import { allFixtures } from '../conformance-fixtures.ts';

/** Many messages signed and verified at once (as a batch runner does) get the same results as one at a time. */
export const concurrencyCheck: ConformanceCheck = {
  id: 'concurrency',
  title: 'gives the same signatures when many messages are signed and verified at once',
  async run(context, failures) {
    await failures.attempt({}, async () => {
      const messages = allFixtures.map((fixture) => ({ fixture, message: context.messageOf(fixture, fixture.record) }));
      const sequential: string[] = [];
      for (const { message } of messages) sequential.push(await context.sign(message));
      const rounds = [0, 1, 2].flatMap(() => messages.map((entry, index) => ({ ...entry, index })));
      const concurrent = await Promise.all(rounds.map(({ message }) => context.sign(message)));
      const verdicts = await Promise.all(rounds.map(({ message, index }) => context.verify(message, sequential[index]!)));
      rounds.forEach(({ fixture, index }, i) => {
        if (concurrent[i] !== sequential[index]) failures.fail({ fixture: fixture.name }, 'signing at the same time as other messages gave another signature');
        if (!verdicts[i]) failures.fail({ fixture: fixture.name }, 'verifying at the same time as other messages refused a good signature');
      });
    });
  },
};
