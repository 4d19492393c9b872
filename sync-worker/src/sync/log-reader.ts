import { apiPaths, mqttlogsAnswerSchema, type MqttlogsAnswer } from '@plant/shared-schema';
import type { ApiClient, ApiResult } from '../transport/http';

/** One page of the change log after `fromTs` (mqttlogs), quiet: failures are the caller's. */
export function readLog(api: ApiClient, fromTs: number): Promise<ApiResult<MqttlogsAnswer>> {
  return api.get(apiPaths.mqttlogs(fromTs), {
    schema: mqttlogsAnswerSchema,
    quiet: true,
    background: true,
  });
}
