import '@mantine/dates/styles.css';
import { DateInput, type DateInputProps, TimePicker, type TimePickerProps } from '@mantine/dates';

/** spec1 §5 / spec3 §9: the date picker's default format is yyyy-MM-dd. */
export const DATE_PICKER_FORMAT = 'YYYY-MM-DD';

/** A date field in the picker format; its value is the 'yyyy-MM-dd' string or null. */
export const DatePickerInput = (props: DateInputProps) => (
  <DateInput valueFormat={DATE_PICKER_FORMAT} clearable {...props} />
);

/** Time picker: hours 1–12 with am/pm, or 0–23; minutes 0–59; two-digit padding (spec3 §9). */
export const TimePickerInput = ({ meridian, ...props }: TimePickerProps & { meridian?: boolean }) => (
  <TimePicker format={meridian ? '12h' : '24h'} withDropdown {...props} />
);
