import {
  type EndpointType,
  endpointOptionsWithDefaults,
  type OptionProblems,
  optionProblems,
  type ServiceOptions,
  type ServiceType,
  serviceOptionsWithDefaults,
  serviceOptionValues,
} from '@media/contract';
import { badRequest } from '../../platform/errors.ts';

// The options of a service or an endpoint, checked against its type, with the defaults filled in.

const problemsError = (problems: OptionProblems, prefix: string) => {
  const entries = Object.entries(problems);
  const first = entries[0];
  if (!first) return undefined;
  return badRequest(
    first[1],
    Object.fromEntries(entries.map(([name, problem]) => [`${prefix}.${name}`, problem])),
  );
};

export const checkedServiceOptions = (type: ServiceType, options: ServiceOptions) => {
  const error = problemsError(optionProblems(type.options, serviceOptionValues(options)), 'options');
  if (error) throw error;
  return serviceOptionsWithDefaults(type.options, options);
};

export const checkedEndpointOptions = (
  type: EndpointType,
  values: Record<string, string | number | boolean>,
) => {
  const error = problemsError(optionProblems(type.options, values), 'options');
  if (error) throw error;
  return endpointOptionsWithDefaults(type.options, values);
};
