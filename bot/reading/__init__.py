"""Reading what people type, before any table sees it: a line into a `command.Command` (and
the words players type instead of a command, `words`), a table option's typed value into a
checked one (`table_options`), what a refusal repeats of the input (`echo`), and `Refusal`,
what bad input is refused with before it changes anything. The lowest layer of the host:
it imports no other part of it but the catalogues."""
