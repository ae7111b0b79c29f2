// Command runner runs behaviour scenarios through the generated Go packages,
// for tests/test_scenarios.py: it reads scenario files named on the command
// line and prints {"<file>": [outcome, ...]}, each outcome {"result": JSON}
// or {"error": ["pointer: message", ...]} as tests/scenario_runner.py does.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"regexp"

	"github.com/chatspec/chatformats/chatevent"
	"github.com/chatspec/chatformats/chatmodality"
	"github.com/chatspec/chatformats/droidletchat"
	"github.com/chatspec/chatformats/droidletchatv1"
	"github.com/chatspec/chatformats/structuredconversation"
)

// uuid4 is what a fresh ID looks like, for scenarios that cannot know its value.
var uuid4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

type step struct {
	Do   string          `json:"do"`
	With json.RawMessage `json:"with"`
}

type scenario struct {
	Format string `json:"format"`
	Steps  []step `json:"steps"`
}

type outcome struct {
	Result any      `json:"result,omitempty"`
	Error  []string `json:"error,omitempty"`
}

// runner performs one operation; the result is marshalled as JSON.
type runner interface {
	run(op string, with json.RawMessage) (any, error)
}

func main() {
	all := map[string][]json.RawMessage{}
	for _, path := range os.Args[1:] {
		data, err := os.ReadFile(path)
		check(err)
		var sc scenario
		check(json.Unmarshal(data, &sc))
		r := newRunner(sc.Format)
		outcomes := []json.RawMessage{}
		for _, st := range sc.Steps {
			result, err := r.run(st.Do, st.With)
			var out outcome
			if err != nil {
				// Every package's ValidationError is the same runtime type.
				var ve *chatmodality.ValidationError
				if !errors.As(err, &ve) {
					panic(fmt.Sprintf("%s: %s: not a ValidationError: %v", path, st.Do, err))
				}
				for _, d := range ve.Errors {
					out.Error = append(out.Error, d.String())
				}
				encoded, err := json.Marshal(out)
				check(err)
				outcomes = append(outcomes, encoded)
				continue
			}
			// Marshalled on its own so that null and empty results survive omitempty.
			encoded, err := json.Marshal(result)
			check(err)
			outcomes = append(outcomes, json.RawMessage(`{"result":`+string(encoded)+`}`))
		}
		all[path] = outcomes
	}
	check(json.NewEncoder(os.Stdout).Encode(all))
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}

func newRunner(format string) runner {
	switch format {
	case "chat_modality":
		state := chatmodality.NewChatState()
		return &chatModality{state: &state}
	case "chat_event":
		return &chatEvent{}
	case "droidlet_chat":
		return droidlet{}
	case "structured_conversation":
		return structured{}
	}
	panic("no runner for format " + format)
}

func decode(with json.RawMessage, into any) {
	if len(with) == 0 {
		return // no "with": the zero arguments
	}
	dec := json.NewDecoder(bytes.NewReader(with))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	check(dec.Decode(into))
}

type chatModality struct {
	state *chatmodality.ChatState
}

func (r *chatModality) input(with json.RawMessage) (*chatmodality.ChatInput, error) {
	return chatmodality.ParseChatModalityFromJSON(with)
}

func (r *chatModality) run(op string, with json.RawMessage) (any, error) {
	switch op {
	case "new_state":
		var args struct {
			MaxHistorySize        int64  `json:"max_history_size"`
			DefaultConversationID string `json:"default_conversation_id"`
		}
		decode(with, &args)
		state := chatmodality.ChatState{} // a literal: its zero values mean the spec's defaults, as NewChatState() sets them
		if args.MaxHistorySize != 0 {
			state.MaxHistorySize = args.MaxHistorySize
		}
		if args.DefaultConversationID != "" {
			state.DefaultConversationID = args.DefaultConversationID
		}
		r.state = &state
		return nil, nil
	case "load_state":
		state, err := chatmodality.ParseChatStateFromJSON(with)
		if err != nil {
			return nil, err
		}
		r.state = state
		return nil, nil
	case "round_trip":
		before, err := json.Marshal(r.state.GetSnapshot())
		check(err)
		state, err := chatmodality.ParseChatStateFromJSON(before)
		if err != nil {
			return nil, err
		}
		r.state = state
		after, err := json.Marshal(r.state.GetSnapshot())
		check(err)
		return bytes.Equal(before, after), nil
	case "apply_input":
		in, err := r.input(with)
		if err != nil {
			return nil, err
		}
		return nil, r.state.ApplyInput(*in)
	case "apply_built_input":
		// A literal of the required fields only: its zero values mean the spec's defaults.
		in, err := r.input(with)
		if err != nil {
			return nil, err
		}
		return nil, r.state.ApplyInput(chatmodality.ChatInput{Timestamp: in.Timestamp, Role: in.Role, Content: in.Content})
	case "snapshot":
		return r.state.GetSnapshot(), nil
	case "message_ids":
		ids := []string{}
		for _, m := range r.state.Messages {
			ids = append(ids, m.MessageID)
		}
		return ids, nil
	case "id_shapes":
		shapes := [][]string{}
		for _, m := range r.state.Messages {
			pair := []string{}
			for _, id := range []*string{&m.MessageID, m.InputID} {
				switch {
				case id == nil:
					pair = append(pair, "None")
				case uuid4.MatchString(*id):
					pair = append(pair, "uuid4")
				default:
					pair = append(pair, *id)
				}
			}
			shapes = append(shapes, pair)
		}
		return shapes, nil
	case "validate_state":
		return r.state.ValidateState(), nil
	case "query":
		var params map[string]any
		decode(with, &params)
		q, err := chatmodality.ParseChatQuery(params)
		// The same parameters as Go code writes them (map[string]any{"limit": 10}): whole numbers as int,
		// which must mean what the JSON numbers do.
		inCode := map[string]any{}
		for k, v := range params {
			inCode[k] = v
			if n, isNumber := v.(json.Number); isNumber {
				if i, whole := n.Int64(); whole == nil {
					inCode[k] = int(i)
				}
			}
		}
		q2, err2 := chatmodality.ParseChatQuery(inCode)
		if !reflect.DeepEqual(q, q2) || fmt.Sprint(err) != fmt.Sprint(err2) {
			panic(fmt.Sprintf("query parameters written in code read otherwise: %v %v, not %v %v", q2, err2, q, err))
		}
		if err != nil {
			return nil, err
		}
		return r.state.Query(q), nil
	case "get_conversation":
		var args struct {
			ConversationID string `json:"conversation_id"`
		}
		decode(with, &args)
		return r.state.GetConversation(args.ConversationID), nil
	case "get_recent_messages":
		var args struct {
			Limit          int    `json:"limit"`
			ConversationID string `json:"conversation_id"`
		}
		decode(with, &args)
		return r.state.GetRecentMessages(args.Limit, args.ConversationID)
	case "get_message_by_id":
		var args struct {
			MessageID string `json:"message_id"`
		}
		decode(with, &args)
		if m, ok := r.state.GetMessageByID(args.MessageID); ok {
			return m, nil
		}
		return nil, nil
	case "append_message":
		// Edits the state's messages by hand (what Reindex is for).
		var m chatmodality.ChatMessage
		if err := json.Unmarshal(with, &m); err != nil {
			return nil, err
		}
		r.state.Messages = append(r.state.Messages, m)
		return nil, nil
	case "reindex":
		r.state.Reindex()
		return nil, nil
	case "summary":
		in, err := r.input(with)
		if err != nil {
			return nil, err
		}
		return in.GetSummary(), nil
	case "affected_entities":
		in, err := r.input(with)
		if err != nil {
			return nil, err
		}
		return in.GetAffectedEntities(), nil
	case "should_merge_with":
		var args struct {
			Input json.RawMessage `json:"input"`
			Other json.RawMessage `json:"other"`
		}
		decode(with, &args)
		in, err := r.input(args.Input)
		if err != nil {
			return nil, err
		}
		other, err := r.input(args.Other)
		if err != nil {
			return nil, err
		}
		return in.ShouldMergeWith(*other), nil
	}
	panic("chat_modality: no operation " + op)
}

type chatEvent struct {
	acc chatevent.InteractionAccumulator
}

func (r *chatEvent) run(op string, with json.RawMessage) (any, error) {
	switch op {
	case "feed":
		event, err := chatevent.ParseChatEventFromJSON(with)
		if err != nil {
			return nil, err
		}
		return r.acc.Feed(*event)
	case "status":
		return r.acc.Status(), nil
	case "messages":
		return append([]chatevent.Message{}, r.acc.Messages...), nil
	case "final_messages":
		return r.acc.FinalMessages, nil
	}
	panic("chat_event: no operation " + op)
}

type droidlet struct{}

func (droidlet) run(op string, with json.RawMessage) (any, error) {
	if op == "upgrade_from_v1" {
		chat, err := droidletchatv1.ParseDroidletChatV1FromJSON(with)
		if err != nil {
			return nil, err
		}
		return droidletchat.UpgradeFromV1(chat)
	}
	if op != "build_chat" {
		panic("droidlet_chat: no operation " + op)
	}
	var args struct {
		SpeakerID    string   `json:"speaker_id"`
		Timestamp    int64    `json:"timestamp"`
		Text         string   `json:"text"`
		Media        string   `json:"media"`
		TextOptions  []string `json:"text_options"`
		MediaOptions []string `json:"media_options"`
	}
	decode(with, &args)
	return droidletchat.BuildChat(args.SpeakerID, args.Timestamp, args.Text, args.Media, args.TextOptions, args.MediaOptions)
}

type structured struct{}

func (structured) run(op string, with json.RawMessage) (any, error) {
	if op != "to_text_document" {
		panic("structured_conversation: no operation " + op)
	}
	doc, err := structuredconversation.ParseStructuredConversationFromJSON(with)
	if err != nil {
		return nil, err
	}
	return doc.ToTextDocument(), nil
}
