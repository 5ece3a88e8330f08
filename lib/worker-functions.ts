import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { queues, type QueueName } from '../platform/resources.ts';
import { workers, type WorkerDefinition } from '../platform/workers.ts';
import type { DataStores } from './data-stores.ts';
import { keysOf, pascalCase } from './naming.ts';
import { SpokeFunction } from './spoke-function.ts';

export interface WorkerFunctionsProps {
  readonly dataStores: DataStores;
  /** Where the dead-letter alarms notify (lib/alarms.ts). */
  readonly alarmTopic: ITopic;
}

/** SQS publishes its queue metrics every five minutes; a shorter period only sees gaps. */
const DEAD_LETTER_ALARM_PERIOD = Duration.minutes(5);

/**
 * The background functions of platform/workers.ts: queue consumers (their SQS event
 * source, with partial batch failures, comes from the `consume` access, lib/spoke-function.ts)
 * and scheduled jobs (an EventBridge `rate()` rule each). Every queue a worker consumes has an
 * alarm on its dead-letter queue: a message there is a report the analysis gave up on, which an
 * operator inspects and redrives (docs/operations.md). Alarms notify the platform's alarm topic.
 */
export class WorkerFunctions extends Construct {
  readonly alarmTopic: ITopic;
  private readonly byId = new Map<string, SpokeFunction>();
  readonly schedules = new Map<string, Rule>();
  readonly deadLetterAlarms = new Map<QueueName, Alarm>();

  constructor(scope: Construct, id: string, props: WorkerFunctionsProps) {
    super(scope, id);
    this.alarmTopic = props.alarmTopic;
    for (const worker of workers) {
      if (this.byId.has(worker.id)) throw new Error(`Worker id ${worker.id} is defined twice in workers.ts`);
      this.byId.set(worker.id, this.createWorker(worker, props.dataStores));
    }
  }

  /** The function of a worker of workers.ts. */
  forWorker(workerId: string): SpokeFunction {
    const found = this.byId.get(workerId);
    if (!found) throw new Error(`No function for worker ${workerId}`);
    return found;
  }

  private createWorker(worker: WorkerDefinition, dataStores: DataStores): SpokeFunction {
    const id = pascalCase(worker.id);
    const fn = new SpokeFunction(this, id, {
      entry: worker.entry,
      access: worker.access,
      dataStores,
      description: worker.description,
      ...(worker.memoryMb ? { memoryMb: worker.memoryMb } : {}),
      ...(worker.timeoutSeconds ? { timeout: Duration.seconds(worker.timeoutSeconds) } : {}),
    });
    if (worker.everyMinutes) {
      this.schedules.set(
        worker.id,
        new Rule(this, `${id}Schedule`, {
          description: `${worker.id} every ${worker.everyMinutes} minute(s)`,
          schedule: Schedule.rate(Duration.minutes(worker.everyMinutes)),
          targets: [new LambdaFunction(fn.function)],
        }),
      );
    }
    for (const queue of keysOf(worker.access.queues ?? {})) {
      if (worker.access.queues?.[queue] === 'consume') this.alarmOnDeadLetters(queue, dataStores);
    }
    return fn;
  }

  private alarmOnDeadLetters(queue: QueueName, dataStores: DataStores): void {
    if (this.deadLetterAlarms.has(queue)) return;
    const alarm = new Alarm(this, `${pascalCase(queue)}DeadLetterAlarm`, {
      alarmDescription: `Messages of ${queues[queue].name} failed ${queues[queue].maxReceiveCount} times and wait in its dead-letter queue`,
      metric: dataStores.queues[queue].deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: DEAD_LETTER_ALARM_PERIOD, statistic: 'Maximum' }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(this.alarmTopic));
    this.deadLetterAlarms.set(queue, alarm);
  }
}
