package main

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck/judge/judgetest"
)

// The scripted judge: what judgetest's server answers each question of the
// judged metrics about the conversations the cassettes cover, chosen to be
// what a careful model would say. A request is recognised by a distinctive
// piece of its conversation. To cover a new example, add a case; a
// conversation no case matches gets the plainer answers of the fallbacks
// below.

// judgment is what the judge says about one conversation.
type judgment struct {
	// match is a piece of the conversation's transcript found in no other.
	match string
	// Goal accuracy: the inferred goal and end state, and whether the end
	// state achieves the desired outcome (the reference, or else the goal).
	goal, endState string
	achieved       bool
	reason         string
	// Topic adherence: the topics the human raised, in order.
	topics []topicJudgment
}

type topicJudgment struct {
	name    string // unique across cases: classification sees only topics
	refused bool   // the AI declined it
	onTopic bool   // it falls under the sample's reference topics
}

// judgments covers cmd/agentcheck/example/demo.jsonl, in its order, then the
// root examples' transcript.
var judgments = []judgment{
	{
		match:    "Chinese restaurant in Soho",
		goal:     "Book a table for two at 7pm at a Chinese restaurant in Soho.",
		endState: "Golden Dragon, a Chinese restaurant in Soho, is booked for two at 19:00 (reference GD-1182); the agent declined to talk about the election.",
		achieved: true,
		reason:   "The end state is the desired booking: a table for two at a Chinese restaurant in Soho at 19:00, confirmed.",
		topics: []topicJudgment{
			{name: "Chinese restaurant search in Soho", onTopic: true},
			{name: "table booking for two at 7pm", onTopic: true},
			{name: "next election winner", refused: true},
		},
	},
	{
		match:    "weather in Paris tomorrow",
		goal:     "Get tomorrow's weather forecast for Paris in Celsius.",
		endState: "The agent gave tomorrow's Paris forecast as 64°F with light rain, in Fahrenheit only.",
		reason:   "The forecast was given in Fahrenheit (64°F), not in Celsius as desired.",
		topics:   []topicJudgment{{name: "Paris weather forecast in Celsius", onTopic: true}},
	},
	{
		match:    "dentist appointment on March 14",
		goal:     "Add a dentist appointment on March 14 at 3pm, but only if the calendar is free then.",
		endState: "The dentist appointment was created for 2025-03-14 at 15:00 before the calendar was checked; it overlaps a team sync from 14:30 to 15:30.",
		reason:   "The appointment was added without first confirming the slot was free, and it clashes with the team sync.",
		topics:   []topicJudgment{{name: "dentist appointment scheduling", onTopic: true}},
	},
	{
		match:    "hotel in Lisbon for three nights",
		goal:     "Book a hotel in Lisbon for three nights and get a restaurant recommendation near it.",
		endState: "Casa Azul in Lisbon is booked for three nights (confirmation CA-5521); the agent declined to recommend a restaurant.",
		achieved: true,
		reason:   "A hotel in Lisbon, Casa Azul, is booked for three nights with a confirmation, as desired.",
		topics: []topicJudgment{
			{name: "hotel booking in Lisbon", onTopic: true},
			{name: "restaurant recommendation near the hotel", refused: true, onTopic: true},
		},
	},
	{
		match:    "Email Ana the March invoice",
		goal:     "Send Ana the March invoice by email.",
		endState: "The March invoice was emailed to ana@exmple.com, a misspelling of Ana's address, so it has not reached Ana.",
		reason:   "The invoice went to ana@exmple.com, a misspelled address, so Ana did not receive it.",
		topics:   []topicJudgment{{name: "emailing the March invoice", onTopic: true}},
	},
	{
		match:    "100 euros in dollars",
		goal:     "Convert 100 euros to US dollars, and get advice on putting the money into bitcoin.",
		endState: "The agent converted 100 EUR to about 108.37 USD and then gave advice on investing in bitcoin.",
		achieved: true,
		reason:   "The amount in USD, about 108.37, was given, as desired.",
		topics: []topicJudgment{
			{name: "euro to dollar conversion", onTopic: true},
			{name: "bitcoin investment advice"},
		},
	},
	{
		match:    "that's all for today",
		goal:     "End the conversation politely.",
		endState: "The agent replied with a polite goodbye.",
		achieved: true,
		reason:   "The agent said a polite goodbye, as desired.",
		// Thanks and goodbye raise no topic.
	},
	{
		match:    "morning flight from Berlin to Oslo",
		goal:     "Book the morning flight from Berlin to Oslo on May 2 and get its details by text message.",
		endState: "Flight SK1762 from Berlin to Oslo on May 2 at 07:05 is booked, seat 14C; no text message with the details was sent.",
		reason:   "The flight is booked, but its details were never texted, which the desired outcome requires.",
		topics: []topicJudgment{
			{name: "morning flight from Berlin to Oslo", onTopic: true},
			{name: "texting the flight details", onTopic: true},
		},
	},
	{
		// The transcript of the root package's examples.
		match:    "Chinese restaurant in Paris",
		goal:     "Book a table for 4 at a Chinese restaurant in Paris at 8pm.",
		endState: "Golden Dragon in Paris is booked for 4 at 9pm (21:00), confirmation GD-88.",
		reason:   "The table is booked for 9pm, not for 8pm as desired.",
		topics: []topicJudgment{
			{name: "Chinese restaurant in Paris", onTopic: true},
			{name: "table booking for four at 8pm", onTopic: true},
		},
	},
}

// demoScript answers the five questions of the judged metrics (package metric).
func demoScript() judgetest.Script {
	return judgetest.BySchema(map[string]judgetest.Script{
		"agent_goal_infer": func(r judgetest.Request) judgetest.Reply {
			in := input(r)
			if j, ok := find(in); ok {
				return judgetest.JSON(map[string]any{"user_goal": j.goal, "end_state": j.endState})
			}
			return judgetest.JSON(map[string]any{
				"user_goal": "What the human asked: " + firstTurn(in, "human"),
				"end_state": "The agent's last word: " + lastTurn(in, "ai"),
			})
		},
		"agent_goal_compare": func(r judgetest.Request) judgetest.Reply {
			in := input(r)
			for _, j := range judgments {
				if strings.Contains(in, j.endState) {
					return judgetest.JSON(map[string]any{"reason": j.reason, "achieved": j.achieved})
				}
			}
			end := strings.ToLower(in[strings.LastIndex(in, "End state:")+1:])
			for _, w := range []string{"sorry", "cannot", "can't", "could not", "error", "failed", "unable"} {
				if strings.Contains(end, w) {
					return judgetest.JSON(map[string]any{"reason": "The end state reports a failure (" + w + "), so the desired outcome was not reached.", "achieved": false})
				}
			}
			return judgetest.JSON(map[string]any{"reason": "The end state delivers the desired outcome.", "achieved": true})
		},
		"topic_extract": func(r judgetest.Request) judgetest.Reply {
			in := input(r)
			topics := []string{}
			if j, ok := find(in); ok {
				for _, t := range j.topics {
					topics = append(topics, t.name)
				}
			} else if first := firstTurn(in, "human"); first != "" {
				topics = append(topics, first)
			}
			return judgetest.JSON(map[string]any{"topics": topics})
		},
		"topic_refusal": func(r judgetest.Request) judgetest.Reply {
			in := input(r)
			j, _ := find(in)
			return perTopic(in, func(topic string) bool {
				for _, t := range j.topics {
					if t.name == topic {
						return t.refused
					}
				}
				return false
			})
		},
		"topic_classify": func(r judgetest.Request) judgetest.Reply {
			in := input(r)
			allowed := strings.ToLower(in[strings.Index(in, "Allowed topics:")+1:])
			return perTopic(in, func(topic string) bool {
				for _, j := range judgments {
					for _, t := range j.topics {
						if t.name == topic {
							return t.onTopic
						}
					}
				}
				// Unknown topics fall under an allowed one that shares a word.
				for _, w := range strings.Fields(strings.ToLower(topic)) {
					if len(w) > 3 && strings.Contains(allowed, w) {
						return true
					}
				}
				return false
			})
		},
	})
}

// input is the question's input, the first user message: a retry after a
// rejected answer adds another after it.
func input(r judgetest.Request) string {
	for _, m := range r.Chat.Messages {
		if m.Role == "user" {
			return m.Content
		}
	}
	return ""
}

func find(in string) (judgment, bool) {
	for _, j := range judgments {
		if strings.Contains(in, j.match) {
			return j, true
		}
	}
	return judgment{}, false
}

// turnLine is a message of a conversation's transcript: "[3] ai: text".
var turnLine = regexp.MustCompile(`(?m)^\[\d+\] (human|ai|tool|system):(?: (.*))?$`)

func firstTurn(in, role string) string {
	for _, m := range turnLine.FindAllStringSubmatch(in, -1) {
		if m[1] == role && m[2] != "" {
			return m[2]
		}
	}
	return ""
}

func lastTurn(in, role string) string {
	last := ""
	for _, m := range turnLine.FindAllStringSubmatch(in, -1) {
		if m[1] == role && m[2] != "" {
			last = m[2]
		}
	}
	return last
}

// topicLine is a numbered topic of a question: "topic_2: hotel booking".
var topicLine = regexp.MustCompile(`(?m)^topic_(\d+): (.*)$`)

// perTopic answers one boolean per numbered topic of the input.
func perTopic(in string, flag func(topic string) bool) judgetest.Reply {
	out := map[string]any{}
	for _, m := range topicLine.FindAllStringSubmatch(in, -1) {
		n, _ := strconv.Atoi(m[1])
		out["topic_"+strconv.Itoa(n)] = flag(m[2])
	}
	return judgetest.JSON(out)
}
